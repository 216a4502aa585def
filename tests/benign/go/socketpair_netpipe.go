// In-process networking without any network: net.Pipe, a syscall.Socketpair wrapped in net.FileConn,
// a Unix socket server in the working directory, and os.Pipe with deadlines.
package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"syscall"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func echoUpper(c net.Conn) {
	defer c.Close()
	r := bufio.NewReader(c)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		c.Write([]byte(strings.ToUpper(line)))
	}
}

func roundtrip(c net.Conn, msg string) string {
	c.Write([]byte(msg + "\n"))
	c.SetReadDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	check(err == nil, fmt.Sprint("read ", err))
	return strings.TrimSpace(line)
}

func main() {
	// net.Pipe: synchronous in-memory conn
	a, b := net.Pipe()
	go echoUpper(b)
	check(roundtrip(a, "pipe") == "PIPE", "net.Pipe")
	a.Close()

	// socketpair
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	check(err == nil, fmt.Sprint("socketpair ", err))
	f0, f1 := os.NewFile(uintptr(fds[0]), "sp0"), os.NewFile(uintptr(fds[1]), "sp1")
	c0, err := net.FileConn(f0)
	check(err == nil, "fileconn0")
	c1, err := net.FileConn(f1)
	check(err == nil, "fileconn1")
	f0.Close()
	f1.Close()
	go echoUpper(c1)
	check(roundtrip(c0, "socketpair") == "SOCKETPAIR", "socketpair echo")
	c0.Close()

	// datagram socketpair with raw syscalls
	dfds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_DGRAM, 0)
	check(err == nil, "dgram pair")
	_, err = syscall.Write(dfds[0], []byte("dgram"))
	check(err == nil, "dgram write")
	buf := make([]byte, 16)
	n, err := syscall.Read(dfds[1], buf)
	check(err == nil && string(buf[:n]) == "dgram", "dgram read")
	syscall.Close(dfds[0])
	syscall.Close(dfds[1])

	// unix socket server in the working directory
	os.Remove("wb.sock")
	ln, err := net.Listen("unix", "wb.sock")
	check(err == nil, fmt.Sprint("listen ", err))
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go echoUpper(c)
		}
	}()
	for i := 0; i < 3; i++ {
		c, err := net.DialTimeout("unix", "wb.sock", 2*time.Second)
		check(err == nil, fmt.Sprint("dial ", err))
		check(roundtrip(c, fmt.Sprint("unix", i)) == fmt.Sprint("UNIX", i), "unix echo")
		c.Close()
	}
	ln.Close()
	_, err = os.Stat("wb.sock")
	check(os.IsNotExist(err), "socket file removed on close")

	// os.Pipe with a read deadline that expires
	r, w, err := os.Pipe()
	check(err == nil, "pipe")
	r.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	_, err = r.Read(buf)
	check(os.IsTimeout(err), fmt.Sprint("deadline ", err))
	r.SetReadDeadline(time.Time{})
	go func() { w.Write([]byte("late")); w.Close() }()
	all, _ := io.ReadAll(r)
	check(string(all) == "late", "pipe read")
	fmt.Println("OK")
}
