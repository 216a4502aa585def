// Lifetimes: functions returning borrows, structs holding references, a zero-copy tokenizer/parser over &str,
// lifetime bounds on generics, 'static data, iterators that borrow, and an arena of indices.
use std::collections::HashMap;

fn longest<'a>(a: &'a str, b: &'a str) -> &'a str {
    if a.len() >= b.len() {
        a
    } else {
        b
    }
}

fn first_word(s: &str) -> &str {
    s.split_whitespace().next().unwrap_or("")
}

#[derive(Debug, PartialEq)]
enum Token<'a> {
    Ident(&'a str),
    Num(&'a str),
    Sym(char),
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn new(src: &'a str) -> Self {
        Lexer { src, pos: 0 }
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;
    fn next(&mut self) -> Option<Token<'a>> {
        let rest = &self.src[self.pos..];
        let trimmed = rest.trim_start();
        self.pos += rest.len() - trimmed.len();
        let c = trimmed.chars().next()?;
        let len = if c.is_alphabetic() {
            trimmed.find(|ch: char| !ch.is_alphanumeric()).unwrap_or(trimmed.len())
        } else if c.is_ascii_digit() {
            trimmed.find(|ch: char| !ch.is_ascii_digit()).unwrap_or(trimmed.len())
        } else {
            c.len_utf8()
        };
        let tok = &trimmed[..len];
        self.pos += len;
        Some(if c.is_alphabetic() {
            Token::Ident(tok)
        } else if c.is_ascii_digit() {
            Token::Num(tok)
        } else {
            Token::Sym(c)
        })
    }
}

struct Config<'a> {
    entries: HashMap<&'a str, &'a str>,
}

impl<'a> Config<'a> {
    fn parse(text: &'a str) -> Config<'a> {
        let entries = text
            .lines()
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        Config { entries }
    }
    fn get(&self, k: &str) -> Option<&'a str> {
        self.entries.get(k).copied()
    }
}

struct Longest<'a, T: 'a> {
    items: &'a [T],
}

impl<'a, T: AsRef<str>> Longest<'a, T> {
    fn find(&self) -> Option<&'a T> {
        self.items.iter().max_by_key(|s| s.as_ref().len())
    }
}

fn pick<'a, 'b>(x: &'a [i32], _y: &'b [i32]) -> &'a i32 {
    &x[0]
}

static GREETING: &str = "hello";

fn evens<'a>(v: &'a [u32]) -> impl Iterator<Item = &'a u32> + 'a {
    v.iter().filter(|x| **x % 2 == 0)
}

struct Tree {
    nodes: Vec<(u32, Vec<usize>)>,
}
impl Tree {
    fn sum(&self, i: usize) -> u32 {
        let (v, kids) = &self.nodes[i];
        v + kids.iter().map(|&k| self.sum(k)).sum::<u32>()
    }
}

fn main() {
    let a = String::from("a long string");
    let result;
    {
        let b = String::from("short");
        result = longest(a.as_str(), b.as_str()).to_string();
    }
    assert_eq!(result, "a long string");
    assert_eq!(first_word("  hello world"), "hello");

    let src = String::from("let x1 = 42 + y;");
    let toks: Vec<Token> = Lexer::new(&src).collect();
    assert_eq!(
        toks,
        vec![Token::Ident("let"), Token::Ident("x1"), Token::Sym('='), Token::Num("42"), Token::Sym('+'), Token::Ident("y"), Token::Sym(';')]
    );
    let text = String::from("host = example.org\nport=8080\n# no equals here\n");
    let value;
    {
        let cfg = Config::parse(&text);
        value = cfg.get("host").unwrap();
        assert_eq!(cfg.get("port"), Some("8080"));
        assert_eq!(cfg.get("nope"), None);
    }
    assert_eq!(value, "example.org");

    let names = vec![String::from("al"), String::from("beatrice"), String::from("cy")];
    let l = Longest { items: &names };
    assert_eq!(l.find().map(|s| s.as_str()), Some("beatrice"));
    assert_eq!(*pick(&[7, 8], &[9]), 7);
    let s: &'static str = GREETING;
    assert_eq!(s.len(), 5);
    let nums = vec![1, 2, 3, 4, 6];
    assert_eq!(evens(&nums).copied().collect::<Vec<_>>(), vec![2, 4, 6]);
    let t = Tree { nodes: vec![(1, vec![1, 2]), (2, vec![3]), (3, vec![]), (4, vec![])] };
    assert_eq!(t.sum(0), 10);
    let mut words: Vec<&str> = src.split(' ').collect();
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    assert_eq!(words[0], "let");
    println!("OK");
}
