// Hostile: ptrace(PTRACE_TRACEME) through glibc. Prints "ptrace EPERM" when refused with EPERM,
// "ptrace <error>" for any other error, "ptrace SUCCEEDED" if it worked.
use std::io;

extern "C" {
    fn ptrace(request: i32, ...) -> i64;
}

const PTRACE_TRACEME: i32 = 0;
const EPERM: i32 = 1;

fn main() {
    let r = unsafe { ptrace(PTRACE_TRACEME, 0i32, std::ptr::null_mut::<u8>(), std::ptr::null_mut::<u8>()) };
    if r == -1 {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(EPERM) {
            println!("ptrace EPERM");
        } else {
            println!("ptrace {}", e);
        }
    } else {
        println!("ptrace SUCCEEDED");
    }
}
