// std::io traits in memory and on the standard streams: Cursor, Read/Write/BufRead adapters (chain, take, bytes),
// io::copy, a custom Write impl, LineWriter, and a fair amount of output to locked stdout and to stderr.
use std::io::{self, BufRead, BufWriter, Cursor, LineWriter, Read, Seek, SeekFrom, Write};

struct Counter {
    bytes: usize,
    lines: usize,
}
impl Write for Counter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.bytes += buf.len();
        self.lines += buf.iter().filter(|&&b| b == b'\n').count();
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

struct Tee<A: Write, B: Write>(A, B);
impl<A: Write, B: Write> Write for Tee<A, B> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.write_all(buf)?;
        self.1.write_all(buf)?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()?;
        self.1.flush()
    }
}

fn main() -> io::Result<()> {
    let mut c = Cursor::new(Vec::new());
    c.write_all(b"hello world")?;
    c.seek(SeekFrom::Start(6))?;
    c.write_all(b"WORLD")?;
    assert_eq!(c.get_ref().as_slice(), b"hello WORLD");
    c.set_position(0);
    let mut s = String::new();
    c.read_to_string(&mut s)?;
    assert_eq!(s, "hello WORLD");

    let mut chained = Cursor::new("abc").chain(Cursor::new("def")).take(5);
    let mut out = String::new();
    chained.read_to_string(&mut out)?;
    assert_eq!(out, "abcde");
    let bytes: Vec<u8> = Cursor::new("xyz").bytes().map(|b| b.unwrap()).collect();
    assert_eq!(bytes, b"xyz");
    let parts: Vec<Vec<u8>> = Cursor::new("a;b;c").split(b';').map(|p| p.unwrap()).collect();
    assert_eq!(parts, vec![b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]);
    let mut exact = [0u8; 4];
    assert_eq!(Cursor::new("ab").read_exact(&mut exact).unwrap_err().kind(), io::ErrorKind::UnexpectedEof);

    let mut counter = Counter { bytes: 0, lines: 0 };
    let n = io::copy(&mut Cursor::new("l1\nl2\nl3\n".repeat(1000)), &mut counter)?;
    assert_eq!((n, counter.bytes, counter.lines), (9000, 9000, 3000));
    let mut tee = Tee(Vec::new(), Counter { bytes: 0, lines: 0 });
    write!(tee, "{}-{}", 1, 2)?;
    assert_eq!(tee.0, b"1-2");
    assert_eq!(tee.1.bytes, 3);
    let mut sink = io::sink();
    assert_eq!(io::copy(&mut io::repeat(0).take(1 << 20), &mut sink)?, 1 << 20);
    let mut empty = String::new();
    io::empty().read_to_string(&mut empty)?;
    assert!(empty.is_empty());

    let mut lw = LineWriter::new(Vec::new());
    lw.write_all(b"partial")?;
    assert!(lw.get_ref().is_empty());
    lw.write_all(b" line\nnext")?;
    assert_eq!(lw.get_ref().as_slice(), b"partial line\n");

    eprintln!("a line on stderr");
    io::stderr().write_all(b"raw stderr bytes\n")?;
    let stdout = io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    for i in 0..2000 {
        writeln!(w, "line {:04} {}", i, "=".repeat(60))?;
    }
    w.write_all(&[b'x'; 8192])?;
    writeln!(w)?;
    writeln!(w, "OK")?;
    w.flush()?;
    Ok(())
}
