// Hostile: kill(-1, SIGKILL), signalling every process it may, then prints "still here".
// Never run as root on a host.
package main

import (
	"fmt"
	"syscall"
)

func main() {
	if err := syscall.Kill(-1, syscall.SIGKILL); err != nil {
		fmt.Println("kill -1:", err)
	}
	fmt.Println("still here")
}
