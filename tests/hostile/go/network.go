// Hostile: tries to reach the host's loopback. The first argument is a TCP port on 127.0.0.1:
// prints "CONNECTED" if a connection is made within 2 s, else "connect refused"; then
// "interfaces " and the sorted, comma-joined interface names from /proc/net/dev.
package main

import (
	"fmt"
	"net"
	"os"
	"sort"
	"strings"
	"time"
)

func main() {
	port := ""
	if len(os.Args) > 1 {
		port = os.Args[1]
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", port), 2*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, "connect:", err)
		fmt.Println("connect refused")
	} else {
		c.Close()
		fmt.Println("CONNECTED")
	}

	var names []string
	data, err := os.ReadFile("/proc/net/dev")
	if err != nil {
		fmt.Fprintln(os.Stderr, "/proc/net/dev:", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.IndexByte(line, ':'); i > 0 {
			names = append(names, strings.TrimSpace(line[:i]))
		}
	}
	sort.Strings(names)
	fmt.Println("interfaces " + strings.Join(names, ","))
}
