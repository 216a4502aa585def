// Output: a fair amount of stdout through fmt, os.Stdout.Write and log, stderr via log and fmt.Fprintln,
// and File.Stat on the standard streams.
package main

import (
	"bufio"
	"fmt"
	"log"
	"os"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("[log] ")
	log.Println("starting (to stderr)")
	fmt.Fprintln(os.Stderr, "a line on stderr")

	w := bufio.NewWriter(os.Stdout)
	total := 0
	for i := 0; i < 2000; i++ {
		n, err := fmt.Fprintf(w, "line %04d %s\n", i, strings.Repeat("=", 60))
		check(err == nil, "write")
		total += n
	}
	check(w.Flush() == nil && total > 100000, "flush")
	n, err := os.Stdout.Write([]byte(strings.Repeat("x", 8192) + "\n"))
	check(err == nil && n == 8193, "direct write")
	os.Stdout.WriteString("string write\n")
	_, err = os.Stdout.Stat()
	check(err == nil, "stat stdout")
	_, err = os.Stdin.Stat()
	check(err == nil, "stat stdin")
	lg := log.New(os.Stdout, "info: ", log.Lmsgprefix)
	lg.Printf("%d items", 3)
	fmt.Println("OK")
}
