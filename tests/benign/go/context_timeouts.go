// context: WithTimeout, WithDeadline, WithCancel, WithValue and cancellation propagation.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type ctxKey string

func slowOp(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := slowOp(ctx, 5*time.Second)
	check(errors.Is(err, context.DeadlineExceeded), "deadline exceeded")
	check(time.Since(start) < time.Second, "returned promptly")

	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Second)
	check(slowOp(ctx2, time.Millisecond) == nil, "fast op ok")
	cancel2()
	check(errors.Is(ctx2.Err(), context.Canceled), "canceled after cancel")

	dl := time.Now().Add(20 * time.Millisecond)
	ctx3, cancel3 := context.WithDeadline(context.Background(), dl)
	defer cancel3()
	d, ok := ctx3.Deadline()
	check(ok && d.Equal(dl), "deadline")
	<-ctx3.Done()

	// cancellation propagates to children and many goroutines
	parent, pcancel := context.WithCancel(context.Background())
	child := context.WithValue(parent, ctxKey("user"), "alice")
	grand, gcancel := context.WithCancel(child)
	defer gcancel()
	check(grand.Value(ctxKey("user")) == "alice", "value")
	check(grand.Value(ctxKey("none")) == nil, "no value")
	var wg sync.WaitGroup
	stopped := make(chan int, 10)
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			t := time.NewTicker(time.Millisecond)
			defer t.Stop()
			for {
				select {
				case <-grand.Done():
					stopped <- i
					return
				case <-t.C:
				}
			}
		}(i)
	}
	time.Sleep(10 * time.Millisecond)
	pcancel()
	wg.Wait()
	check(len(stopped) == 10, "all stopped")
	check(errors.Is(grand.Err(), context.Canceled), "grandchild canceled")
	check(context.Background().Err() == nil && context.TODO() != nil, "background")
	fmt.Println("OK")
}
