// Traits and generics: default methods, trait bounds and where clauses, associated types and consts,
// trait objects (Box<dyn>, &dyn), operator overloading, Display, From/Into, Default, PartialOrd derive, generic structs.
use std::collections::HashMap;
use std::fmt;
use std::ops::{Add, Index, Mul, Neg};

trait Shape {
    const SIDES: u32;
    fn area(&self) -> f64;
    fn name(&self) -> String {
        format!("shape with {} sides", Self::SIDES)
    }
}

trait Describe {
    fn describe(&self) -> String;
}

#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Vec2 {
    x: f64,
    y: f64,
}

impl Add for Vec2 {
    type Output = Vec2;
    fn add(self, o: Vec2) -> Vec2 {
        Vec2 { x: self.x + o.x, y: self.y + o.y }
    }
}
impl Mul<f64> for Vec2 {
    type Output = Vec2;
    fn mul(self, k: f64) -> Vec2 {
        Vec2 { x: self.x * k, y: self.y * k }
    }
}
impl Neg for Vec2 {
    type Output = Vec2;
    fn neg(self) -> Vec2 {
        Vec2 { x: -self.x, y: -self.y }
    }
}
impl fmt::Display for Vec2 {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({:.1}, {:.1})", self.x, self.y)
    }
}
impl From<(f64, f64)> for Vec2 {
    fn from(t: (f64, f64)) -> Self {
        Vec2 { x: t.0, y: t.1 }
    }
}

struct Square(f64);
struct Triangle(f64, f64);
impl Shape for Square {
    const SIDES: u32 = 4;
    fn area(&self) -> f64 {
        self.0 * self.0
    }
}
impl Shape for Triangle {
    const SIDES: u32 = 3;
    fn area(&self) -> f64 {
        0.5 * self.0 * self.1
    }
    fn name(&self) -> String {
        "triangle".into()
    }
}

impl<T: Shape> Describe for T {
    fn describe(&self) -> String {
        format!("{} of area {:.1}", self.name(), self.area())
    }
}

trait Animal {
    fn speak(&self) -> String;
    fn legs(&self) -> u32 {
        4
    }
}
struct Dog;
struct Bird;
impl Animal for Dog {
    fn speak(&self) -> String {
        "woof".into()
    }
}
impl Animal for Bird {
    fn speak(&self) -> String {
        "tweet".into()
    }
    fn legs(&self) -> u32 {
        2
    }
}

trait Container {
    type Item;
    fn get(&self, i: usize) -> Option<&Self::Item>;
    fn first(&self) -> Option<&Self::Item> {
        self.get(0)
    }
}
struct Stack<T> {
    items: Vec<T>,
}
impl<T> Container for Stack<T> {
    type Item = T;
    fn get(&self, i: usize) -> Option<&T> {
        self.items.get(i)
    }
}
impl<T> Index<usize> for Stack<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.items[i]
    }
}

fn largest<T: PartialOrd + Copy>(xs: &[T]) -> T {
    let mut m = xs[0];
    for &x in xs {
        if x > m {
            m = x;
        }
    }
    m
}

fn summarize<K, V>(m: &HashMap<K, V>) -> String
where
    K: fmt::Debug + Ord,
    V: fmt::Display,
{
    let mut ks: Vec<_> = m.iter().collect();
    ks.sort_by(|a, b| a.0.cmp(b.0));
    ks.iter().map(|(k, v)| format!("{:?}={}", k, v)).collect::<Vec<_>>().join(",")
}

fn total_legs(zoo: &[Box<dyn Animal>]) -> u32 {
    zoo.iter().map(|a| a.legs()).sum()
}

fn speak_twice(a: &dyn Animal) -> String {
    format!("{0} {0}", a.speak())
}

#[derive(Debug, PartialEq, PartialOrd, Eq, Ord, Clone, Hash)]
enum Level {
    Low,
    Mid,
    High,
}

fn main() {
    let a = Vec2 { x: 1.0, y: 2.0 };
    let b: Vec2 = (3.0, 4.0).into();
    assert_eq!(a + b, Vec2 { x: 4.0, y: 6.0 });
    assert_eq!((a * 2.0).to_string(), "(2.0, 4.0)");
    assert_eq!(-a, Vec2 { x: -1.0, y: -2.0 });
    assert_eq!(Vec2::default(), Vec2 { x: 0.0, y: 0.0 });

    assert_eq!(Square(2.0).describe(), "shape with 4 sides of area 4.0");
    assert_eq!(Triangle(3.0, 4.0).describe(), "triangle of area 6.0");
    let descs: Vec<&dyn Describe> = vec![&Square(1.0), &Triangle(1.0, 1.0)];
    assert_eq!(descs.len(), 2);

    let zoo: Vec<Box<dyn Animal>> = vec![Box::new(Dog), Box::new(Bird), Box::new(Dog)];
    assert_eq!(total_legs(&zoo), 10);
    assert_eq!(zoo.iter().map(|a| a.speak()).collect::<Vec<_>>().join(" "), "woof tweet woof");
    assert_eq!(speak_twice(&Bird), "tweet tweet");

    let s = Stack { items: vec!["x", "y"] };
    assert_eq!(s.first(), Some(&"x"));
    assert_eq!(s[1], "y");
    assert_eq!(largest(&[3, 9, 2]), 9);
    assert_eq!(largest(&[1.5, -2.0]), 1.5);
    assert_eq!(largest(&['q', 'z', 'a']), 'z');
    let mut m = HashMap::new();
    m.insert("b", 2);
    m.insert("a", 1);
    assert_eq!(summarize(&m), "\"a\"=1,\"b\"=2");
    assert!(Level::Low < Level::High && Level::Mid > Level::Low);
    let mut lv = vec![Level::High, Level::Low, Level::Mid];
    lv.sort();
    assert_eq!(lv, vec![Level::Low, Level::Mid, Level::High]);
    println!("OK");
}
