// Hostile: raw system calls (through glibc's syscall()) a sandboxed program must not make: keyctl, bpf,
// unshare(CLONE_NEWUSER), mount, perf_event_open, reboot. For each prints "<name> EPERM" if refused with
// EPERM, "<name> <error>" for any other error, "<name> SUCCEEDED" if it worked. Never run as root on a
// host (mount would cover /tmp).
use std::io;

extern "C" {
    fn syscall(n: i64, ...) -> i64;
    fn close(fd: i32) -> i32;
}

const EPERM: i32 = 1;

fn report(name: &str, r: i64) {
    if r == -1 {
        let e = io::Error::last_os_error();
        if e.raw_os_error() == Some(EPERM) {
            println!("{} EPERM", name);
        } else {
            println!("{} {}", name, e);
        }
    } else {
        println!("{} SUCCEEDED", name);
    }
}

fn main() {
    unsafe {
        // keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL): join a new anonymous session keyring
        report("keyctl", syscall(250, 1i64, 0i64));

        // bpf(BPF_MAP_CREATE, {BPF_MAP_TYPE_ARRAY, key 4, value 4, 1 entry}, sizeof attr)
        let mut attr = [0u32; 18];
        attr[0] = 2;
        attr[1] = 4;
        attr[2] = 4;
        attr[3] = 1;
        report("bpf", syscall(321, 0i64, attr.as_mut_ptr(), std::mem::size_of_val(&attr) as i64));

        // unshare(CLONE_NEWUSER)
        report("unshare", syscall(272, 0x1000_0000i64));

        // mount("none", "/tmp", "tmpfs", 0, NULL)
        report(
            "mount",
            syscall(165, b"none\0".as_ptr(), b"/tmp\0".as_ptr(), b"tmpfs\0".as_ptr(), 0i64, std::ptr::null::<u8>()),
        );

        // perf_event_open({PERF_TYPE_SOFTWARE, size 112, PERF_COUNT_SW_CPU_CLOCK}, self, any cpu, no group, 0)
        let mut pattr = [0u32; 28];
        pattr[0] = 1;
        pattr[1] = 112;
        let r = syscall(298, pattr.as_mut_ptr(), 0i64, -1i64, -1i64, 0i64);
        report("perf_event_open", r);
        if r >= 0 {
            close(r as i32);
        }

        // reboot with deliberately invalid magic numbers: the capability check comes first (EPERM
        // without CAP_SYS_BOOT); with it the kernel answers EINVAL and does nothing
        report("reboot", syscall(169, 0i64, 0i64, 0i64, 0i64));
    }
}
