// Iterators and closures: adapters, custom Iterator impls, fold/scan/take_while, zip/chain/flat_map, peekable,
// closures capturing by reference/move, Fn/FnMut/FnOnce and returning closures.
use std::collections::HashMap;

struct Fib {
    a: u64,
    b: u64,
}

impl Iterator for Fib {
    type Item = u64;
    fn next(&mut self) -> Option<u64> {
        let r = self.a;
        self.a = self.b;
        self.b += r;
        Some(r)
    }
}

fn make_adder(n: i32) -> impl Fn(i32) -> i32 {
    move |x| x + n
}

fn make_counter() -> impl FnMut() -> u32 {
    let mut c = 0;
    move || {
        c += 1;
        c
    }
}

fn apply<F: FnOnce() -> String>(f: F) -> String {
    f()
}

fn compose<A, B, C>(f: impl Fn(A) -> B, g: impl Fn(B) -> C) -> impl Fn(A) -> C {
    move |x| g(f(x))
}

fn main() {
    let v: Vec<i32> = (1..=10).collect();
    let evens_sq: Vec<i32> = v.iter().filter(|&&x| x % 2 == 0).map(|x| x * x).collect();
    assert_eq!(evens_sq, vec![4, 16, 36, 64, 100]);
    assert_eq!(v.iter().fold(0, |a, b| a + b), 55);
    assert_eq!(v.iter().product::<i32>(), 3628800);
    assert_eq!(v.iter().rev().skip(2).step_by(3).copied().collect::<Vec<_>>(), vec![8, 5, 2]);
    let running: Vec<i32> = v.iter().scan(0, |s, &x| { *s += x; Some(*s) }).take_while(|&s| s < 20).collect();
    assert_eq!(running, vec![1, 3, 6, 10, 15]);
    assert_eq!(v.iter().position(|&x| x == 7), Some(6));
    assert!(v.iter().any(|&x| x > 9) && v.iter().all(|&x| x > 0));
    assert_eq!(v.iter().max_by_key(|&&x| (x % 4, x)), Some(&7));
    assert_eq!(v.iter().min_by(|a, b| (*a % 3).cmp(&(*b % 3)).then(b.cmp(a))), Some(&9));
    let (small, large): (Vec<i32>, Vec<i32>) = v.iter().partition(|&&x| x <= 3);
    assert_eq!((small.len(), large.len()), (3, 7));
    let pairs: Vec<(char, i32)> = "abc".chars().zip(1..).collect();
    assert_eq!(pairs, vec![('a', 1), ('b', 2), ('c', 3)]);
    let (letters, nums): (String, Vec<i32>) = pairs.iter().cloned().unzip();
    assert_eq!(letters, "abc");
    assert_eq!(nums.len(), 3);
    let chained: Vec<i32> = (1..3).chain(7..9).collect();
    assert_eq!(chained, vec![1, 2, 7, 8]);
    let flat: Vec<char> = vec!["hi", "yo"].into_iter().flat_map(|s| s.chars()).collect();
    assert_eq!(flat, vec!['h', 'i', 'y', 'o']);
    assert_eq!(vec![vec![1, 2], vec![3]].concat(), vec![1, 2, 3]);
    assert_eq!(Fib { a: 0, b: 1 }.take(10).last(), Some(34));
    assert_eq!(Fib { a: 0, b: 1 }.skip_while(|&x| x < 1000).next(), Some(1597));
    let mut it = [1, 1, 2, 3, 3, 3].iter().peekable();
    let mut runs = Vec::new();
    while let Some(&x) = it.next() {
        let mut n = 1;
        while it.peek() == Some(&&x) {
            it.next();
            n += 1;
        }
        runs.push((x, n));
    }
    assert_eq!(runs, vec![(1, 2), (2, 1), (3, 3)]);
    let words = ["apple", "avocado", "banana", "blueberry", "cherry"];
    let mut by_letter: HashMap<char, Vec<&str>> = HashMap::new();
    words.iter().for_each(|w| by_letter.entry(w.chars().next().unwrap()).or_default().push(w));
    assert_eq!(by_letter[&'b'], vec!["banana", "blueberry"]);
    let total_len: usize = words.iter().map(|w| w.len()).sum();
    assert_eq!(total_len, 33);
    let mut cycle = [1, 2, 3].iter().cycle();
    assert_eq!((0..7).map(|_| *cycle.next().unwrap()).collect::<Vec<_>>(), vec![1, 2, 3, 1, 2, 3, 1]);
    assert_eq!(std::iter::repeat("ab").take(3).collect::<String>(), "ababab");
    assert_eq!(std::iter::successors(Some(1u32), |x| if *x < 100 { Some(x * 3) } else { None }).count(), 6);
    let opts = vec![Some(1), Some(2), None];
    assert_eq!(opts.iter().flatten().sum::<i32>(), 3);
    let all: Option<Vec<i32>> = opts.iter().cloned().collect();
    assert_eq!(all, None);
    let res: Result<Vec<i32>, String> = vec!["1", "2", "3"].iter().map(|s| s.parse::<i32>().map_err(|e| e.to_string())).collect();
    assert_eq!(res, Ok(vec![1, 2, 3]));

    let add5 = make_adder(5);
    assert_eq!(add5(10), 15);
    let mut counter = make_counter();
    counter();
    counter();
    assert_eq!(counter(), 3);
    let name = String::from("world");
    let greet = move || format!("hello {}", name);
    assert_eq!(apply(greet), "hello world");
    let mut log = Vec::new();
    let mut push = |s: &str| log.push(s.to_string());
    push("a");
    push("b");
    assert_eq!(log, vec!["a", "b"]);
    let f = compose(|x: i32| x * 2, |y: i32| format!("<{}>", y));
    assert_eq!(f(21), "<42>");
    let fns: Vec<Box<dyn Fn(i32) -> i32>> = vec![Box::new(|x| x + 1), Box::new(|x| x * 10), Box::new(make_adder(-3))];
    assert_eq!(fns.iter().fold(1, |acc, f| f(acc)), 17);
    println!("OK");
}
