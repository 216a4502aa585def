// Hostile: kill(-1, SIGKILL), signalling every process it may, then prints "still here".
// Never run as root on a host.
extern "C" {
    fn kill(pid: i32, sig: i32) -> i32;
}

fn main() {
    if unsafe { kill(-1, 9) } == -1 {
        println!("kill -1: {}", std::io::Error::last_os_error());
    }
    println!("still here");
}
