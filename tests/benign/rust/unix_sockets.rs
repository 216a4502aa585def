// Local IPC with no network: UnixStream::pair, a UnixListener in the working directory served by threads,
// UnixDatagram pairs, read/write timeouts, shutdown, set_nonblocking, and an anonymous pipe to a child via Stdio.
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::Shutdown;
use std::os::unix::net::{UnixDatagram, UnixListener, UnixStream};
use std::thread;
use std::time::Duration;

fn echo_upper(s: UnixStream) {
    let mut w = s.try_clone().unwrap();
    for line in BufReader::new(s).lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => return,
        };
        if writeln!(w, "{}", line.to_uppercase()).is_err() {
            return;
        }
    }
}

fn roundtrip(s: &mut UnixStream, msg: &str) -> String {
    writeln!(s, "{}", msg).unwrap();
    let mut r = BufReader::new(s.try_clone().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    line.trim_end().to_string()
}

fn main() {
    let (mut a, b) = UnixStream::pair().unwrap();
    let h = thread::spawn(move || echo_upper(b));
    a.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
    assert_eq!(roundtrip(&mut a, "pair"), "PAIR");
    assert_eq!(roundtrip(&mut a, "again"), "AGAIN");
    a.shutdown(Shutdown::Write).unwrap();
    h.join().unwrap();
    let mut rest = Vec::new();
    a.read_to_end(&mut rest).unwrap();
    assert!(rest.is_empty());

    let _ = std::fs::remove_file("wb.sock");
    let listener = UnixListener::bind("wb.sock").unwrap();
    let server = thread::spawn(move || {
        for (i, conn) in listener.incoming().enumerate() {
            let conn = conn.unwrap();
            thread::spawn(move || echo_upper(conn));
            if i == 2 {
                break;
            }
        }
    });
    for i in 0..3 {
        let mut c = UnixStream::connect("wb.sock").unwrap();
        c.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
        assert_eq!(roundtrip(&mut c, &format!("unix{}", i)), format!("UNIX{}", i));
        assert!(c.peer_addr().unwrap().as_pathname().is_some());
    }
    server.join().unwrap();
    std::fs::remove_file("wb.sock").unwrap();
    assert_eq!(UnixStream::connect("wb.sock").unwrap_err().kind(), ErrorKind::NotFound);

    let (d1, d2) = UnixDatagram::pair().unwrap();
    d1.send(b"datagram one").unwrap();
    d1.send(b"two").unwrap();
    let mut buf = [0u8; 64];
    let n = d2.recv(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"datagram one");
    let n = d2.recv(&mut buf).unwrap();
    assert_eq!(&buf[..n], b"two");
    d2.set_read_timeout(Some(Duration::from_millis(20))).unwrap();
    let e = d2.recv(&mut buf).unwrap_err();
    assert!(e.kind() == ErrorKind::WouldBlock || e.kind() == ErrorKind::TimedOut);
    d2.set_nonblocking(true).unwrap();
    assert_eq!(d2.recv(&mut buf).unwrap_err().kind(), ErrorKind::WouldBlock);

    let (mut p, mut q) = UnixStream::pair().unwrap();
    let big = vec![7u8; 1 << 20];
    let writer = thread::spawn(move || {
        p.write_all(&big).unwrap();
    });
    let mut got = Vec::new();
    let mut chunk = [0u8; 65536];
    while got.len() < 1 << 20 {
        let n = q.read(&mut chunk).unwrap();
        assert!(n > 0);
        got.extend_from_slice(&chunk[..n]);
    }
    writer.join().unwrap();
    assert!(got.iter().all(|&b| b == 7));
    println!("OK");
}
