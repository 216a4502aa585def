// Hostile: tries to reach the host's loopback. The first argument is a TCP port on 127.0.0.1:
// prints "CONNECTED" if a connection is made within 2 s, else "connect refused"; then
// "interfaces " and the sorted, comma-joined interface names from /proc/net/dev.
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::time::Duration;

fn main() {
    let port = std::env::args().nth(1).unwrap_or_default();
    let result = port
        .parse::<u16>()
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("port {:?}: {}", port, e)))
        .and_then(|p| TcpStream::connect_timeout(&SocketAddr::from((Ipv4Addr::LOCALHOST, p)), Duration::from_secs(2)));
    match result {
        Ok(_) => println!("CONNECTED"),
        Err(e) => {
            eprintln!("connect: {}", e);
            println!("connect refused");
        }
    }

    let text = std::fs::read_to_string("/proc/net/dev").unwrap_or_else(|e| {
        eprintln!("/proc/net/dev: {}", e);
        String::new()
    });
    let mut names: Vec<&str> = text.lines().filter_map(|l| l.split_once(':')).map(|(n, _)| n.trim()).collect();
    names.sort_unstable();
    println!("interfaces {}", names.join(","));
}
