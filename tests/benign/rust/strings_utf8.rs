// String, &str, chars and bytes: UTF-8 lengths, char boundaries, case mapping, splitting, parsing, building.
use std::fmt::Write as _;

fn main() {
    let s = "Hello, 世界! Ωmega 🚀";
    assert_eq!(s.len(), 26);
    assert_eq!(s.chars().count(), 18);
    assert!(s.is_char_boundary(7) && !s.is_char_boundary(8));
    assert_eq!(&s[7..13], "世界");
    assert_eq!(s.find('界'), Some(10));
    assert_eq!(s.char_indices().filter(|(_, c)| !c.is_ascii()).map(|(i, _)| i).collect::<Vec<_>>(), vec![7, 10, 15, 22]);
    assert_eq!('🚀'.len_utf8(), 4);
    assert_eq!('🚀'.len_utf16(), 2);
    assert_eq!(s.encode_utf16().count(), 19);

    let rev: String = "héllo, 世界".chars().rev().collect();
    assert_eq!(rev, "界世 ,olléh");
    assert_eq!("ΣΊΣΥΦΟΣ".to_lowercase(), "σίσυφος");
    assert_eq!("straße".to_uppercase(), "STRASSE");
    assert!("Hello".eq_ignore_ascii_case("hELLO"));

    let mut owned = String::from("abc");
    owned.push('d');
    owned.push_str("ef");
    owned.insert(0, '>');
    owned.insert_str(1, "> ");
    assert_eq!(owned, ">> abcdef");
    assert_eq!(owned.pop(), Some('f'));
    owned.truncate(4);
    assert_eq!(owned, ">> a");
    owned.clear();
    assert!(owned.is_empty());
    write!(owned, "{}-{:03}", "x", 7).unwrap();
    assert_eq!(owned, "x-007");

    let csv = "  alpha, beta ,gamma,,delta  ";
    let parts: Vec<&str> = csv.trim().split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
    assert_eq!(parts, ["alpha", "beta", "gamma", "delta"]);
    assert_eq!("a=b=c".split_once('='), Some(("a", "b=c")));
    assert_eq!("a=b=c".rsplitn(2, '=').collect::<Vec<_>>(), ["c", "a=b"]);
    assert_eq!("line1\nline2\r\nline3".lines().count(), 3);
    assert_eq!("one two  three".split_whitespace().last(), Some("three"));
    assert_eq!("xxabcxx".trim_matches('x'), "abc");
    assert_eq!("prefix-body".strip_prefix("prefix-"), Some("body"));
    assert_eq!("aaa".replace('a', "bb"), "bbbbbb");
    assert_eq!("abc".repeat(2), "abcabc");
    assert!("haystack".contains("st") && "haystack".starts_with("hay") && "haystack".ends_with('k'));
    assert_eq!("a1b2c3".matches(char::is_numeric).collect::<String>(), "123");

    assert_eq!("42".parse::<i32>(), Ok(42));
    assert!("4x2".parse::<i32>().is_err());
    assert_eq!("3.5".parse::<f64>().unwrap(), 3.5);
    assert_eq!("true".parse::<bool>(), Ok(true));
    assert_eq!('7'.to_digit(10), Some(7));
    assert_eq!(char::from_digit(11, 16), Some('b'));
    assert_eq!(char::from_u32(0x3bb), Some('λ'));
    assert_eq!(('a'..='e').collect::<String>(), "abcde");

    let bytes = s.as_bytes();
    assert_eq!(bytes[7], 0xe4);
    assert_eq!(std::str::from_utf8(&bytes[7..10]), Ok("世"));
    assert!(std::str::from_utf8(&[0xff, 0xfe]).is_err());
    assert_eq!(String::from_utf8_lossy(&[b'a', 0xff, b'b']), "a\u{fffd}b");
    let b = b"raw bytes\x00";
    assert_eq!(b.len(), 10);
    assert_eq!(String::from_utf8(vec![0xce, 0xa9]).unwrap(), "Ω");
    let title: String = "hello world"
        .split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(title, "Hello World");
    assert!('界'.is_alphabetic() && '٣'.is_numeric() && '\u{a0}'.is_whitespace() && 'Ω'.is_uppercase());
    let raw = r#"a "quoted" \n string"#;
    assert_eq!(raw.len(), 20);
    assert_eq!(format!("{:?}", "tab\t\"q\""), "\"tab\\t\\\"q\\\"\"");
    println!("OK");
}
