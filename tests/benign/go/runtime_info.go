// runtime: GOMAXPROCS, NumGoroutine, NumCPU, GC and MemStats, Caller, Gosched, debug.SetGCPercent, plus os identity calls.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

var sink [][]byte

func main() {
	check(runtime.NumCPU() >= 1, "numcpu")
	prev := runtime.GOMAXPROCS(2)
	check(prev >= 1 && runtime.GOMAXPROCS(0) == 2, "gomaxprocs")
	check(runtime.GOOS == "linux" && strings.HasPrefix(runtime.Version(), "go"), "goos version")

	base := runtime.NumGoroutine()
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); <-stop }()
	}
	check(runtime.NumGoroutine() >= base+20, "numgoroutine up")
	close(stop)
	wg.Wait()
	deadline := time.Now().Add(time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		runtime.Gosched()
	}
	check(runtime.NumGoroutine() <= base, "numgoroutine down")

	for i := 0; i < 50; i++ {
		sink = append(sink, make([]byte, 1<<20))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	check(ms.HeapAlloc >= 50<<20, "heapalloc")
	sink = nil
	runtime.GC()
	debug.FreeOSMemory()
	runtime.ReadMemStats(&ms)
	check(ms.NumGC >= 1 && ms.HeapAlloc < 40<<20, "gc freed")
	old := debug.SetGCPercent(50)
	debug.SetGCPercent(old)
	_, file, line, ok := runtime.Caller(0)
	check(ok && strings.HasSuffix(file, "main.go") && line > 0, "caller")
	st := debug.Stack()
	check(strings.Contains(string(st), "main.main"), "stack")
	bi, ok := debug.ReadBuildInfo()
	check(ok && bi.GoVersion != "", "buildinfo")

	check(os.Getpid() > 0 && os.Getppid() >= 0, "pids")
	_ = os.Getuid()
	_ = os.Getgid()
	host, err := os.Hostname()
	check(err == nil && host != "", "hostname")
	check(os.Getpagesize() >= 4096, "pagesize")
	check(os.Getenv("HOME") != "" && os.Getenv("LANG") == "C.UTF-8", "env")
	os.Setenv("WB_X", "1")
	v, ok := os.LookupEnv("WB_X")
	check(ok && v == "1", "setenv")
	os.Unsetenv("WB_X")
	_, ok = os.LookupEnv("WB_X")
	check(!ok, "unsetenv")
	check(len(os.Args) == 1, "no args")
	fmt.Println("OK")
}
