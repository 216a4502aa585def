// Hostile: raw system calls a sandboxed program must not make: keyctl, bpf, unshare(CLONE_NEWUSER),
// mount, perf_event_open, reboot. For each prints "<name> EPERM" if refused with EPERM, "<name> <error>"
// for any other error, "<name> SUCCEEDED" if it worked. Never run as root on a host (mount would
// cover /tmp).
package main

import (
	"fmt"
	"syscall"
	"unsafe"
)

func report(name string, errno syscall.Errno) {
	switch errno {
	case 0:
		fmt.Println(name, "SUCCEEDED")
	case syscall.EPERM:
		fmt.Println(name, "EPERM")
	default:
		fmt.Println(name, errno.Error())
	}
}

func str(s string) uintptr {
	p, err := syscall.BytePtrFromString(s)
	if err != nil {
		panic(err)
	}
	return uintptr(unsafe.Pointer(p))
}

func main() {
	// keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL): join a new anonymous session keyring
	_, _, e := syscall.Syscall6(250, 1, 0, 0, 0, 0, 0)
	report("keyctl", e)

	// bpf(BPF_MAP_CREATE, {BPF_MAP_TYPE_ARRAY, key 4, value 4, 1 entry}, sizeof attr)
	var attr [72]byte
	*(*uint32)(unsafe.Pointer(&attr[0])) = 2
	*(*uint32)(unsafe.Pointer(&attr[4])) = 4
	*(*uint32)(unsafe.Pointer(&attr[8])) = 4
	*(*uint32)(unsafe.Pointer(&attr[12])) = 1
	_, _, e = syscall.Syscall(321, 0, uintptr(unsafe.Pointer(&attr[0])), uintptr(len(attr)))
	report("bpf", e)

	// unshare(CLONE_NEWUSER)
	_, _, e = syscall.Syscall(272, 0x10000000, 0, 0)
	report("unshare", e)

	// mount("none", "/tmp", "tmpfs", 0, NULL)
	src, target, fstype := str("none"), str("/tmp"), str("tmpfs")
	_, _, e = syscall.Syscall6(165, src, target, fstype, 0, 0, 0)
	report("mount", e)

	// perf_event_open({PERF_TYPE_SOFTWARE, size 112, PERF_COUNT_SW_CPU_CLOCK}, self, any cpu, no group, 0)
	var pattr [112]byte
	*(*uint32)(unsafe.Pointer(&pattr[0])) = 1
	*(*uint32)(unsafe.Pointer(&pattr[4])) = uint32(len(pattr))
	r, _, e := syscall.Syscall6(298, uintptr(unsafe.Pointer(&pattr[0])), 0, ^uintptr(0), ^uintptr(0), 0, 0)
	report("perf_event_open", e)
	if e == 0 {
		syscall.Close(int(r))
	}

	// reboot with deliberately invalid magic numbers: the capability check comes first (EPERM without
	// CAP_SYS_BOOT); with it the kernel answers EINVAL and does nothing
	_, _, e = syscall.Syscall6(169, 0, 0, 0, 0, 0, 0)
	report("reboot", e)
}
