// std::fmt: width/precision/alignment/fill, sign and alternate forms, radix, exponent, Debug vs Display,
// pretty Debug, named and positional arguments, implementing Display/Binary, write!/format_args!.
use std::fmt::{self, Write};

struct Matrix([[i32; 2]; 2]);
impl fmt::Display for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        for row in &self.0 {
            writeln!(f, "[{:>3} {:>3}]", row[0], row[1])?;
        }
        Ok(())
    }
}

struct Flags(u8);
impl fmt::Binary for Flags {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Binary::fmt(&self.0, f)
    }
}

struct Padded(&'static str);
impl fmt::Display for Padded {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.pad(self.0)
    }
}

#[derive(Debug)]
#[allow(dead_code)]
struct Point {
    x: i32,
    y: i32,
    label: Option<&'static str>,
}

fn main() {
    assert_eq!(format!("{:5}|{:<5}|{:^5}|{:>5}", 42, 42, 42, 42), "   42|42   | 42  |   42");
    assert_eq!(format!("{:*^9}", "mid"), "***mid***");
    assert_eq!(format!("{:08.3}", -3.14159), "-003.142");
    assert_eq!(format!("{:+}", 5), "+5");
    assert_eq!(format!("{:x} {:X} {:o} {:b}", 255, 255, 8, 5), "ff FF 10 101");
    assert_eq!(format!("{:#x} {:#b} {:#o}", 255, 5, 8), "0xff 0b101 0o10");
    assert_eq!(format!("{:#010x}", 255), "0x000000ff");
    assert_eq!(format!("{:e} {:E}", 1234.5, 0.00012), "1.2345e3 1.2E-4");
    assert_eq!(format!("{:.0} {:.1} {}", 2.5, 0.05, 1.0 / 3.0), "2 0.1 0.3333333333333333");
    assert_eq!(format!("{} {} {}", f64::NAN, f64::INFINITY, -0.0f64), "NaN inf -0");
    assert_eq!(format!("{:?} {:?}", 1.0f64, 0.1f32 + 0.2f32), "1.0 0.3");
    let w = 7;
    let p = 2;
    assert_eq!(format!("{:w$.p$}", 3.14159), "   3.14");
    assert_eq!(format!("{:>1$}", "ab", 4), "  ab");
    assert_eq!(format!("{0}-{1}-{0}", "a", "b"), "a-b-a");
    assert_eq!(format!("{name} is {age}", name = "Ann", age = 30), "Ann is 30");
    let x = 5;
    assert_eq!(format!("{x} {x:?} {x:>3}"), "5 5   5");
    assert_eq!(format!("{{literal}}"), "{literal}");
    assert_eq!(format!("{:?}", "q\"\n"), r#""q\"\n""#);
    assert_eq!(format!("{:?}", 'a'), "'a'");
    assert_eq!(format!("{:?}", vec![Some(1), None]), "[Some(1), None]");
    assert_eq!(format!("{:?}", (1, "a", [0.5])), "(1, \"a\", [0.5])");
    let pt = Point { x: 1, y: -2, label: Some("p") };
    assert_eq!(format!("{:?}", pt), "Point { x: 1, y: -2, label: Some(\"p\") }");
    assert_eq!(format!("{:#?}", pt), "Point {\n    x: 1,\n    y: -2,\n    label: Some(\n        \"p\",\n    ),\n}");
    assert_eq!(Matrix([[1, 20], [300, 4]]).to_string(), "[  1  20]\n[300   4]\n");
    assert_eq!(format!("{:08b}", Flags(5)), "00000101");
    assert_eq!(format!("[{:>6}]", Padded("ab")), "[    ab]");
    assert_eq!(format!("[{:.1}]", Padded("abc")), "[a]");
    let mut s = String::new();
    for i in 0..3 {
        write!(s, "{}{}", if i > 0 { "," } else { "" }, i).unwrap();
    }
    assert_eq!(s, "0,1,2");
    let args = format!("{}", format_args!("{}+{}", 1, 2));
    assert_eq!(args, "1+2");
    assert_eq!(format!("{:>10.3e}", 123456.0), "   1.235e5");
    assert_eq!(i64::MIN.to_string(), "-9223372036854775808");
    assert_eq!(format!("{}", u128::MAX), "340282366920938463463374607431768211455");
    eprintln!("{:-<20}", "stderr line ");
    print!("{}", "");
    println!("{}", "OK".trim());
}
