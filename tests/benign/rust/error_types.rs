// Error handling: a custom error enum implementing Display + Error with source(), From conversions for ?,
// Box<dyn Error> with downcasting, io::Error kinds, and main returning Result.
use std::error::Error;
use std::fmt;
use std::fs;
use std::io;
use std::num::ParseIntError;

#[derive(Debug)]
enum ConfigError {
    Io(io::Error),
    Parse { line: usize, source: ParseIntError },
    Missing(&'static str),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Io(e) => write!(f, "io error: {}", e),
            ConfigError::Parse { line, .. } => write!(f, "parse error on line {}", line),
            ConfigError::Missing(k) => write!(f, "missing key {}", k),
        }
    }
}

impl Error for ConfigError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match self {
            ConfigError::Io(e) => Some(e),
            ConfigError::Parse { source, .. } => Some(source),
            ConfigError::Missing(_) => None,
        }
    }
}

impl From<io::Error> for ConfigError {
    fn from(e: io::Error) -> Self {
        ConfigError::Io(e)
    }
}

#[derive(Debug)]
struct Config {
    port: u16,
    workers: u32,
}

fn parse_config(text: &str) -> Result<Config, ConfigError> {
    let mut port = None;
    let mut workers = None;
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (k, v) = line.split_once('=').ok_or(ConfigError::Missing("="))?;
        let n: u32 = v.trim().parse().map_err(|e| ConfigError::Parse { line: i + 1, source: e })?;
        match k.trim() {
            "port" => port = Some(n as u16),
            "workers" => workers = Some(n),
            _ => {}
        }
    }
    Ok(Config { port: port.ok_or(ConfigError::Missing("port"))?, workers: workers.unwrap_or(1) })
}

fn load(path: &str) -> Result<Config, ConfigError> {
    let text = fs::read_to_string(path)?;
    parse_config(&text)
}

fn dynamic(kind: u8) -> Result<u32, Box<dyn Error + Send + Sync>> {
    match kind {
        0 => Ok("12".parse::<u32>()?),
        1 => Ok("x".parse::<u32>()?),
        2 => Err("plain string error".into()),
        _ => Err(Box::new(ConfigError::Missing("kind"))),
    }
}

fn chain(e: &dyn Error) -> Vec<String> {
    let mut out = vec![e.to_string()];
    let mut cur = e.source();
    while let Some(s) = cur {
        out.push(s.to_string());
        cur = s.source();
    }
    out
}

fn main() -> Result<(), Box<dyn Error>> {
    fs::write("app.conf", "# comment\nport = 8080\nworkers=4\n")?;
    let c = load("app.conf")?;
    assert_eq!((c.port, c.workers), (8080, 4));

    match load("nope.conf") {
        Err(ConfigError::Io(e)) => assert_eq!(e.kind(), io::ErrorKind::NotFound),
        other => panic!("expected io error, got {:?}", other),
    }
    fs::write("bad.conf", "port=80\nworkers=many\n")?;
    let err = load("bad.conf").unwrap_err();
    assert_eq!(chain(&err), vec!["parse error on line 2".to_string(), "invalid digit found in string".to_string()]);
    let err = parse_config("workers=2").unwrap_err();
    assert!(matches!(err, ConfigError::Missing("port")) && err.source().is_none());

    assert_eq!(dynamic(0).unwrap(), 12);
    let e = dynamic(1).unwrap_err();
    assert!(e.downcast_ref::<ParseIntError>().is_some());
    assert_eq!(dynamic(2).unwrap_err().to_string(), "plain string error");
    let e = dynamic(3).unwrap_err();
    assert!(matches!(e.downcast_ref::<ConfigError>(), Some(ConfigError::Missing("kind"))));

    let custom = io::Error::new(io::ErrorKind::Other, "custom io");
    assert_eq!(custom.to_string(), "custom io");
    let e = fs::File::open("/definitely/not/here").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::NotFound);
    assert_eq!(e.raw_os_error(), Some(2));
    let e = fs::create_dir("app.conf").unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
    fs::remove_file("app.conf")?;
    fs::remove_file("bad.conf")?;
    println!("OK");
    Ok(())
}
