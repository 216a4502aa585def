// Hostile: ptrace(PTRACE_TRACEME). Prints "ptrace EPERM" when refused with EPERM,
// "ptrace <error>" for any other error, "ptrace SUCCEEDED" if it worked.
package main

import (
	"fmt"
	"os"
	"syscall"
)

func main() {
	_, _, errno := syscall.Syscall(syscall.SYS_PTRACE, syscall.PTRACE_TRACEME, 0, 0)
	switch errno {
	case 0:
		fmt.Println("ptrace SUCCEEDED")
	case syscall.EPERM:
		fmt.Println("ptrace EPERM")
	default:
		fmt.Println("ptrace", errno.Error())
	}
	os.Exit(0)
}
