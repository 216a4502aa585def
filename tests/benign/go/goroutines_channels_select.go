// Goroutines, buffered/unbuffered channels, select with timeouts, pipelines and a worker pool.
package main

import (
	"fmt"
	"os"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func gen(n int) <-chan int {
	out := make(chan int)
	go func() {
		defer close(out)
		for i := 1; i <= n; i++ {
			out <- i
		}
	}()
	return out
}

func square(in <-chan int) <-chan int {
	out := make(chan int, 4)
	go func() {
		defer close(out)
		for v := range in {
			out <- v * v
		}
	}()
	return out
}

func main() {
	sum := 0
	for v := range square(gen(100)) {
		sum += v
	}
	check(sum == 338350, "pipeline")

	// worker pool
	jobs := make(chan int, 100)
	results := make(chan int, 1000)
	for w := 0; w < 8; w++ {
		go func() {
			for j := range jobs {
				results <- j * 2
			}
		}()
	}
	for i := 0; i < 1000; i++ {
		jobs <- i
	}
	close(jobs)
	total := 0
	for i := 0; i < 1000; i++ {
		total += <-results
	}
	check(total == 999000, "pool")

	// select with timeout and default
	c := make(chan string)
	select {
	case <-c:
		check(false, "nothing sent")
	default:
	}
	go func() {
		time.Sleep(10 * time.Millisecond)
		c <- "late"
	}()
	select {
	case v := <-c:
		check(v == "late", "value")
	case <-time.After(2 * time.Second):
		check(false, "timeout")
	}
	select {
	case <-c:
		check(false, "no value")
	case <-time.After(20 * time.Millisecond):
	}

	// fan-in from many goroutines, done channel
	done := make(chan struct{})
	merged := make(chan int)
	for i := 0; i < 50; i++ {
		go func(i int) {
			select {
			case merged <- i:
			case <-done:
			}
		}(i)
	}
	seen := map[int]bool{}
	for len(seen) < 50 {
		seen[<-merged] = true
	}
	close(done)
	// nil channel in select never fires
	var nilc chan int
	select {
	case <-nilc:
		check(false, "nil chan")
	case <-time.After(time.Millisecond):
	}
	// closed channel gives zero value, ok=false
	cl := make(chan int, 1)
	cl <- 7
	close(cl)
	v, ok := <-cl
	check(v == 7 && ok, "buffered after close")
	v, ok = <-cl
	check(v == 0 && !ok, "closed")
	fmt.Println("OK")
}
