// macro_rules!: repetition, multiple arms, recursion, hygiene, generating structs/impls/tests-like tables,
// counting, a hashmap literal, plus built-in macros (vec!, matches!, concat!, stringify!, line!, file!, cfg!, option_env!).
use std::collections::HashMap;

macro_rules! square {
    ($x:expr) => {
        $x * $x
    };
}

macro_rules! hashmap {
    () => { HashMap::new() };
    ($($k:expr => $v:expr),+ $(,)?) => {{
        let mut m = HashMap::new();
        $( m.insert($k, $v); )+
        m
    }};
}

macro_rules! count {
    () => { 0usize };
    ($head:tt $($tail:tt)*) => { 1usize + count!($($tail)*) };
}

macro_rules! max {
    ($x:expr) => { $x };
    ($x:expr, $($rest:expr),+) => {{
        let a = $x;
        let b = max!($($rest),+);
        if a > b { a } else { b }
    }};
}

macro_rules! make_struct {
    ($name:ident { $($field:ident : $ty:ty),* }) => {
        #[derive(Debug, Default, Clone, PartialEq)]
        struct $name { $($field: $ty),* }
        impl $name {
            fn field_names() -> Vec<&'static str> {
                vec![$(stringify!($field)),*]
            }
        }
    };
}

macro_rules! ops_table {
    ($($name:ident => $op:tt),*) => {
        fn apply(op: &str, a: i64, b: i64) -> Option<i64> {
            match op {
                $( stringify!($name) => Some(a $op b), )*
                _ => None,
            }
        }
    };
}

macro_rules! my_assert_close {
    ($a:expr, $b:expr) => {
        my_assert_close!($a, $b, 1e-9)
    };
    ($a:expr, $b:expr, $eps:expr) => {
        assert!(($a - $b).abs() < $eps, "{} vs {}", $a, $b)
    };
}

macro_rules! hygiene {
    ($e:expr) => {{
        let x = 10;
        $e + x
    }};
}

make_struct!(Point3 { x: i32, y: i32, z: i32 });
ops_table!(add => +, sub => -, mul => *);

struct Sq {
    s: f64,
}
impl Sq {
    fn area(&self) -> f64 {
        square!(self.s)
    }
}

fn main() {
    assert_eq!(square!(7), 49);
    assert_eq!(square!(1 + 2), 9);
    let m: HashMap<&str, i32> = hashmap! { "a" => 1, "b" => 2, "c" => 3, };
    assert_eq!(m.len(), 3);
    assert_eq!(m["b"], 2);
    let empty: HashMap<i32, i32> = hashmap!();
    assert!(empty.is_empty());
    assert_eq!(count!(a b c d e), 5);
    assert_eq!(max!(3), 3);
    assert_eq!(max!(3, 9, 4, 1), 9);
    assert_eq!(max!("pear", "apple"), "pear");
    let p = Point3 { x: 1, ..Default::default() };
    assert_eq!(p, Point3 { x: 1, y: 0, z: 0 });
    assert_eq!(Point3::field_names(), vec!["x", "y", "z"]);
    assert_eq!(apply("add", 2, 3), Some(5));
    assert_eq!(apply("mul", 4, 3), Some(12));
    assert_eq!(apply("div", 4, 3), None);
    my_assert_close!(0.1f64 + 0.2, 0.3);
    my_assert_close!(1.0f64, 1.05, 0.1);
    let x = 1;
    assert_eq!(hygiene!(x), 11);
    assert_eq!(Sq { s: 3.0 }.area(), 9.0);

    assert_eq!(concat!("a", 1, 2.5, true), "a12.5true");
    assert_eq!(stringify!(foo + bar * 2), "foo + bar * 2");
    assert!(line!() > 0 && column!() > 0);
    assert!(file!().ends_with(".rs"));
    assert_eq!(module_path!(), "main");
    assert!(cfg!(target_os = "linux"));
    assert!(matches!(Some(5), Some(n) if n > 3));
    let v = vec![1; 4];
    assert_eq!(v, [1, 1, 1, 1]);
    let r: Result<(), String> = (|| {
        if v.len() != 4 {
            return Err(format!("len {}", v.len()));
        }
        Ok(())
    })();
    assert!(r.is_ok());
    debug_assert!(true);
    assert_ne!(1, 2, "values must differ");
    let s = format!("{}-{}", square!(2), option_env!("WB_UNSET_AT_BUILD").unwrap_or("none"));
    assert_eq!(s, "4-none");
    println!("OK");
}
