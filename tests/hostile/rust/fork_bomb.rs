// Hostile: a fork bomb. Every copy spawns copies of this same program (std::env::current_exe) with the
// argument "child", which makes them do the same, forever. The first time a spawn fails with EAGAIN
// a copy prints "fork EAGAIN" once, then keeps trying. Never run unbounded outside the sandbox.
use std::env;
use std::process::Command;

fn main() {
    let me = env::current_exe().unwrap_or_else(|_| env::args_os().next().unwrap_or_default().into());
    let (mut said_eagain, mut said_other) = (false, false);
    loop {
        match Command::new(&me).arg("child").spawn() {
            Ok(child) => drop(child), // never waited for
            Err(e) if e.raw_os_error() == Some(11) => {
                if !said_eagain {
                    said_eagain = true;
                    println!("fork EAGAIN");
                }
            }
            Err(e) => {
                if !said_other {
                    said_other = true;
                    println!("fork other: {}", e);
                }
            }
        }
    }
}
