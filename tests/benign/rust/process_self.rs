// std::process::Command running this same program (std::env::current_exe) as a child with an argument:
// piping stdin, capturing stdout/stderr with output(), exit codes, env vars, spawn + wait, and several children at once.
use std::env;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{self, Command, Stdio};

fn child(mode: &str) -> ! {
    match mode {
        "upper" => {
            let mut s = String::new();
            io::stdin().read_to_string(&mut s).unwrap();
            print!("{}", s.to_uppercase());
        }
        "exit3" => {
            eprintln!("child says bye");
            process::exit(3);
        }
        "env" => print!("{}", env::var("WB_CHILD").unwrap_or_default()),
        "count" => {
            for i in 0..5 {
                println!("{}", i);
            }
        }
        "panic" => {
            std::panic::set_hook(Box::new(|_| {}));
            panic!("child panic");
        }
        _ => process::exit(9),
    }
    io::stdout().flush().unwrap();
    process::exit(0)
}

fn main() {
    let args: Vec<String> = env::args().collect();
    if args.len() > 1 {
        child(&args[1]);
    }
    let me = env::current_exe().expect("current_exe");
    assert!(me.is_absolute());

    let mut c = Command::new(&me).arg("upper").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    c.stdin.take().unwrap().write_all("piped text".as_bytes()).unwrap();
    let out = c.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "PIPED TEXT");

    let out = Command::new(&me).arg("exit3").output().unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(out.stderr, b"child says bye\n");

    let out = Command::new(&me).arg("env").env("WB_CHILD", "hello").output().unwrap();
    assert_eq!(out.stdout, b"hello");
    let out = Command::new(&me).arg("env").env_clear().output().unwrap();
    assert_eq!(out.stdout, b"");

    let out = Command::new(&me).arg("panic").output().unwrap();
    assert_eq!(out.status.code(), Some(101));

    let mut c = Command::new(&me).arg("count").stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    assert!(c.id() > 0);
    let lines: Vec<String> = BufReader::new(c.stdout.take().unwrap()).lines().map(|l| l.unwrap()).collect();
    assert_eq!(lines, vec!["0", "1", "2", "3", "4"]);
    assert!(c.wait().unwrap().success());

    let st = Command::new(&me).arg("count").stdout(Stdio::null()).current_dir(".").status().unwrap();
    assert!(st.success());

    let children: Vec<_> = (0..4).map(|_| Command::new(&me).arg("count").stdout(Stdio::piped()).spawn().unwrap()).collect();
    for ch in children {
        let o = ch.wait_with_output().unwrap();
        assert!(o.status.success() && o.stdout.len() == 10);
    }

    let mut sleeper = Command::new(&me).arg("upper").stdin(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    assert!(sleeper.try_wait().unwrap().is_none());
    sleeper.kill().unwrap();
    let st = sleeper.wait().unwrap();
    assert!(!st.success() && st.code().is_none());

    let e = Command::new("/nonexistent/binary").status().unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    assert!(process::id() > 0);
    println!("OK");
}
