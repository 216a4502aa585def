// Hostile: writes 64 KiB chunks to stdout forever (stops only if stdout itself fails).
use std::io::Write;

fn main() {
    let chunk = vec![b'x'; 64 << 10];
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    loop {
        if out.write_all(&chunk).is_err() {
            std::process::exit(1);
        }
    }
}
