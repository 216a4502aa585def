// Hostile: tries to create files on the root filesystem outside the working directory.
// Prints "<path> refused" or "<path> WRITTEN" for each, then "done". Never run as root on a host.
use std::fs::File;
use std::io::Write;

fn main() {
    for p in ["/etc/warmbox_pwned", "/usr/bin/warmbox_pwned", "/warmbox_pwned"] {
        match File::create(p).and_then(|mut f| f.write_all(b"pwned\n")) {
            Ok(()) => println!("{} WRITTEN", p),
            Err(e) => {
                eprintln!("{}: {}", p, e);
                println!("{} refused", p);
            }
        }
    }
    println!("done");
}
