// time: durations, formatting/parsing, timers, tickers, AfterFunc, Sleep and monotonic clocks.
package main

import (
	"fmt"
	"os"
	"sync/atomic"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	d, err := time.ParseDuration("1h15m30.5s")
	check(err == nil && d.Seconds() == 4530.5, "parse duration")
	check((90*time.Minute).String() == "1h30m0s", "duration string")
	check(d.Round(time.Minute) == 76*time.Minute, "round")

	t := time.Date(2024, time.February, 28, 23, 30, 0, 0, time.UTC)
	t2 := t.Add(time.Hour)
	check(t2.Month() == time.February && t2.Day() == 29, "leap year")
	check(t2.Weekday() == time.Thursday, "weekday")
	check(t2.YearDay() == 60, "yearday")
	check(t.Format(time.RFC3339) == "2024-02-28T23:30:00Z", "rfc3339")
	check(t.Format("Mon Jan 2 15:04:05 2006") == "Wed Feb 28 23:30:00 2024", "layout")
	p, err := time.Parse("2006-01-02 15:04", "2023-12-31 08:05")
	check(err == nil && p.Hour() == 8 && p.Year() == 2023, "parse")
	check(t.Sub(p).Hours() > 1400, "sub")
	check(t.AddDate(0, 1, 1).Format("2006-01-02") == "2024-03-29", "adddate")
	check(t.Truncate(24*time.Hour).Hour() == 0, "truncate")
	fixed := time.FixedZone("X", 5*3600+1800)
	check(t.In(fixed).Format("15:04 -0700") == "05:00 +0530", "zone")
	check(time.Unix(1700000000, 0).UTC().Year() == 2023, "unix")
	loc, err := time.LoadLocation("UTC")
	check(err == nil && loc.String() == "UTC", "loadlocation")

	start := time.Now()
	time.Sleep(15 * time.Millisecond)
	el := time.Since(start)
	check(el >= 15*time.Millisecond && el < time.Second, "sleep")

	timer := time.NewTimer(10 * time.Millisecond)
	<-timer.C
	t3 := time.NewTimer(time.Hour)
	check(t3.Stop(), "stop timer")
	t3.Reset(5 * time.Millisecond)
	<-t3.C

	ticker := time.NewTicker(5 * time.Millisecond)
	n := 0
	for range ticker.C {
		n++
		if n == 5 {
			break
		}
	}
	ticker.Stop()
	check(time.Since(start) >= 45*time.Millisecond, "ticks took time")

	var fired int32
	done := make(chan struct{})
	time.AfterFunc(5*time.Millisecond, func() { atomic.StoreInt32(&fired, 1); close(done) })
	<-done
	check(atomic.LoadInt32(&fired) == 1, "afterfunc")
	af := time.AfterFunc(time.Hour, func() {})
	check(af.Stop(), "stop afterfunc")

	// many concurrent timers
	ch := make(chan int, 200)
	for i := 0; i < 200; i++ {
		i := i
		time.AfterFunc(time.Duration(i%20)*time.Millisecond, func() { ch <- i })
	}
	sum := 0
	for i := 0; i < 200; i++ {
		sum += <-ch
	}
	check(sum == 19900, "many timers")
	check(!time.Now().IsZero() && time.Now().After(start), "now")
	fmt.Println("OK")
}
