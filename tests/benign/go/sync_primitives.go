// sync: WaitGroup, Mutex, RWMutex, Once, Cond, Pool, Map and sync/atomic.
package main

import (
	"fmt"
	"os"
	"sync"
	"sync/atomic"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type SafeCounter struct {
	mu sync.Mutex
	m  map[string]int
}

func (c *SafeCounter) Inc(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k]++
}

func main() {
	var wg sync.WaitGroup
	c := SafeCounter{m: map[string]int{}}
	var once sync.Once
	inits := 0
	var hits int64
	var ai atomic.Int64
	for i := 0; i < 64; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			once.Do(func() { inits++ })
			for j := 0; j < 1000; j++ {
				c.Inc(fmt.Sprint(i % 4))
				atomic.AddInt64(&hits, 1)
				ai.Add(2)
			}
		}(i)
	}
	wg.Wait()
	check(inits == 1, "once")
	check(c.m["0"] == 16000 && c.m["3"] == 16000, "mutex")
	check(atomic.LoadInt64(&hits) == 64000 && ai.Load() == 128000, "atomic")
	var flag int32
	check(atomic.CompareAndSwapInt32(&flag, 0, 1) && !atomic.CompareAndSwapInt32(&flag, 0, 1), "cas")

	// RWMutex: many readers
	var rw sync.RWMutex
	data := map[int]int{1: 1}
	var reads int64
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 100; j++ {
				rw.RLock()
				_ = data[1]
				rw.RUnlock()
				atomic.AddInt64(&reads, 1)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for j := 0; j < 100; j++ {
			rw.Lock()
			data[1]++
			rw.Unlock()
		}
	}()
	wg.Wait()
	check(reads == 1600 && data[1] == 101, "rwmutex")

	// Cond: a queue with waiting consumers
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	queue := []int{}
	got := make(chan int, 10)
	for i := 0; i < 2; i++ {
		go func() {
			for {
				mu.Lock()
				for len(queue) == 0 {
					cond.Wait()
				}
				v := queue[0]
				queue = queue[1:]
				mu.Unlock()
				got <- v
			}
		}()
	}
	for i := 0; i < 10; i++ {
		mu.Lock()
		queue = append(queue, i)
		mu.Unlock()
		cond.Signal()
	}
	s := 0
	for i := 0; i < 10; i++ {
		s += <-got
	}
	check(s == 45, "cond")

	// Pool and Map
	pool := sync.Pool{New: func() interface{} { return make([]byte, 1024) }}
	buf := pool.Get().([]byte)
	check(len(buf) == 1024, "pool")
	pool.Put(buf)
	var sm sync.Map
	for i := 0; i < 10; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); sm.Store(i, i*i) }(i)
	}
	wg.Wait()
	v, ok := sm.Load(9)
	check(ok && v.(int) == 81, "sync.Map")
	act, loaded := sm.LoadOrStore(3, 0)
	check(loaded && act.(int) == 9, "loadorstore")
	n := 0
	sm.Range(func(k, v interface{}) bool { n++; return true })
	check(n == 10, "range")
	fmt.Println("OK")
}
