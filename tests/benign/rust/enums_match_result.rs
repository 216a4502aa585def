// Enums with data, exhaustive match with guards and bindings, Option/Result combinators and the ? operator.
use std::collections::HashMap;
use std::num::ParseIntError;

#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Num(f64),
    Var(String),
    Add(Box<Expr>, Box<Expr>),
    Mul(Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
}

fn eval(e: &Expr, env: &HashMap<String, f64>) -> Result<f64, String> {
    Ok(match e {
        Expr::Num(n) => *n,
        Expr::Var(v) => *env.get(v).ok_or_else(|| format!("unbound {}", v))?,
        Expr::Add(a, b) => eval(a, env)? + eval(b, env)?,
        Expr::Mul(a, b) => eval(a, env)? * eval(b, env)?,
        Expr::Neg(a) => -eval(a, env)?,
    })
}

#[derive(Debug)]
enum Shape {
    Circle { r: f64 },
    Rect { w: f64, h: f64 },
    Unit,
}

fn classify(n: i64) -> &'static str {
    match n {
        i64::MIN..=-1 => "negative",
        0 => "zero",
        x if x % 2 == 0 && x < 100 => "small even",
        1 | 3 | 5 | 7 | 9 => "small odd",
        100..=999 => "hundreds",
        _ => "other",
    }
}

fn parse_pair(s: &str) -> Result<(i32, i32), ParseIntError> {
    let mut it = s.split(',');
    let a = it.next().unwrap_or("").trim().parse()?;
    let b = it.next().unwrap_or("").trim().parse()?;
    Ok((a, b))
}

fn first_even_square(v: &[i32]) -> Option<i32> {
    let x = v.iter().find(|&&x| x % 2 == 0)?;
    Some(x * x)
}

fn main() {
    let e = Expr::Add(
        Box::new(Expr::Num(2.0)),
        Box::new(Expr::Mul(Box::new(Expr::Var("x".into())), Box::new(Expr::Neg(Box::new(Expr::Num(3.0)))))),
    );
    let mut env = HashMap::new();
    env.insert("x".to_string(), 4.0);
    assert_eq!(eval(&e, &env), Ok(-10.0));
    env.clear();
    assert_eq!(eval(&e, &env), Err("unbound x".to_string()));

    let shapes = [Shape::Circle { r: 1.0 }, Shape::Rect { w: 2.0, h: 3.0 }, Shape::Unit];
    let areas: Vec<f64> = shapes
        .iter()
        .map(|s| match s {
            Shape::Circle { r } => std::f64::consts::PI * r * r,
            Shape::Rect { w, h } if w == h => w * w,
            Shape::Rect { w, h } => w * h,
            Shape::Unit => 1.0,
        })
        .collect();
    assert!((areas[0] - 3.14159).abs() < 1e-4 && areas[1] == 6.0 && areas[2] == 1.0);
    assert_eq!(format!("{:?}", shapes[1]), "Rect { w: 2.0, h: 3.0 }");

    assert_eq!(classify(-5), "negative");
    assert_eq!(classify(0), "zero");
    assert_eq!(classify(42), "small even");
    assert_eq!(classify(7), "small odd");
    assert_eq!(classify(500), "hundreds");
    assert_eq!(classify(1001), "other");

    assert_eq!(parse_pair("3, 4"), Ok((3, 4)));
    assert!(parse_pair("3,x").is_err());
    assert!(parse_pair("").is_err());
    assert_eq!(first_even_square(&[1, 3, 4, 6]), Some(16));
    assert_eq!(first_even_square(&[1, 3]), None);

    let some: Option<i32> = Some(5);
    let none: Option<i32> = None;
    assert_eq!(some.map(|x| x * 2).filter(|x| *x > 5), Some(10));
    assert_eq!(none.unwrap_or(7), 7);
    assert_eq!(none.or(Some(1)).and_then(|x| if x > 0 { Some(x + 1) } else { None }), Some(2));
    assert_eq!(some.ok_or("missing"), Ok(5));
    assert_eq!(some.xor(none), Some(5));
    assert_eq!(some.zip(Some('a')), Some((5, 'a')));
    let mut slot = Some(3);
    assert_eq!(slot.take(), Some(3));
    assert_eq!(slot, None);
    assert_eq!(*slot.get_or_insert(9), 9);
    assert_eq!(slot.replace(1), Some(9));
    let r: Result<i32, String> = Err("bad".into());
    assert_eq!(r.clone().unwrap_or_default(), 0);
    assert_eq!(r.clone().map_err(|e| e.len()), Err(3));
    assert_eq!(r.as_ref().ok(), None);
    assert_eq!(r.or_else(|e| if e == "bad" { Ok::<i32, String>(-1) } else { Err(e) }), Ok(-1));
    let ok: Result<i32, String> = Ok(2);
    assert_eq!(ok.and_then(|x| if x > 1 { Ok(x * 10) } else { Err("small".into()) }), Ok(20));
    if let Some(x) = some {
        assert_eq!(x, 5);
    }
    let mut stack = vec![1, 2, 3];
    let mut popped = 0;
    while let Some(top) = stack.pop() {
        popped += top;
    }
    assert_eq!(popped, 6);
    let t = (1, "two", 3.0);
    let (a, _, c) = t;
    assert_eq!(a as f64 + c, 4.0);
    let arr = [1, 2, 3, 4, 5];
    let [first, .., last] = arr;
    assert_eq!((first, last), (1, 5));
    match &arr[..] {
        [x, rest @ ..] => assert_eq!((*x, rest.len()), (1, 4)),
        [] => unreachable!(),
    }
    let digit = match 4 {
        n @ 1..=9 => Some(n),
        _ => None,
    };
    assert_eq!(digit, Some(4));
    assert!(matches!(e, Expr::Add(..)));
    println!("OK");
}
