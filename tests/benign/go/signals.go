// os/signal: Notify for SIGUSR1/SIGUSR2/SIGHUP sent to ourselves, Ignore, Reset, Stop and signal.NotifyContext.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func waitSig(c chan os.Signal) os.Signal {
	select {
	case s := <-c:
		return s
	case <-time.After(2 * time.Second):
		return nil
	}
}

func main() {
	c := make(chan os.Signal, 4)
	signal.Notify(c, syscall.SIGUSR1, syscall.SIGUSR2)
	pid := os.Getpid()
	check(syscall.Kill(pid, syscall.SIGUSR1) == nil, "kill self")
	check(waitSig(c) == syscall.SIGUSR1, "usr1")
	p, err := os.FindProcess(pid)
	check(err == nil, "findprocess")
	check(p.Signal(syscall.SIGUSR2) == nil, "signal")
	check(waitSig(c) == syscall.SIGUSR2, "usr2")

	signal.Ignore(syscall.SIGHUP)
	check(signal.Ignored(syscall.SIGHUP), "ignored")
	syscall.Kill(pid, syscall.SIGHUP) // would terminate us if not ignored
	time.Sleep(10 * time.Millisecond)
	signal.Reset(syscall.SIGHUP)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	go func() {
		time.Sleep(5 * time.Millisecond)
		syscall.Kill(pid, syscall.SIGTERM)
	}()
	select {
	case <-ctx.Done():
	case <-time.After(2 * time.Second):
		check(false, "notifycontext")
	}
	stop()

	signal.Stop(c)
	// signal 0 probes existence
	check(syscall.Kill(pid, 0) == nil, "kill 0")
	// a signal arriving while another goroutine is blocked in a pipe read
	c2 := make(chan os.Signal, 1)
	signal.Notify(c2, syscall.SIGUSR1)
	r, w, err := os.Pipe()
	check(err == nil, "pipe")
	got := make(chan string)
	go func() {
		b := make([]byte, 5)
		n, _ := r.Read(b)
		got <- string(b[:n])
	}()
	syscall.Kill(pid, syscall.SIGUSR1)
	check(waitSig(c2) == syscall.SIGUSR1, "usr1 again")
	w.Write([]byte("after"))
	check(<-got == "after", "pipe read")
	fmt.Println("OK")
}
