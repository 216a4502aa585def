// Plain CPU work: sieve of Eratosthenes, matrix multiply, recursion with memoization, closures,
// defer ordering, arrays vs slices, labeled loops, goto-free state machines and bit tricks.
package main

import (
	"fmt"
	"os"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func sieve(n int) []int {
	comp := make([]bool, n+1)
	var primes []int
	for i := 2; i <= n; i++ {
		if !comp[i] {
			primes = append(primes, i)
			for j := i * i; j <= n; j += i {
				comp[j] = true
			}
		}
	}
	return primes
}

func matmul(a, b [][]float64) [][]float64 {
	n, m, p := len(a), len(b), len(b[0])
	c := make([][]float64, n)
	for i := range c {
		c[i] = make([]float64, p)
		for k := 0; k < m; k++ {
			for j := 0; j < p; j++ {
				c[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return c
}

func counter() (func() int, func()) {
	n := 0
	return func() int { n++; return n }, func() { n = 0 }
}

func collatzMax(limit int) (int, int) {
	memo := map[int]int{1: 1}
	var steps func(n int) int
	steps = func(n int) int {
		if v, ok := memo[n]; ok {
			return v
		}
		next := n / 2
		if n%2 == 1 {
			next = 3*n + 1
		}
		v := 1 + steps(next)
		memo[n] = v
		return v
	}
	best, arg := 0, 0
	for i := 1; i < limit; i++ {
		if s := steps(i); s > best {
			best, arg = s, i
		}
	}
	return arg, best
}

func deferOrder() (s string) {
	for i := 0; i < 3; i++ {
		defer func(i int) { s += fmt.Sprint(i) }(i)
	}
	return "x"
}

func queens(n int) int {
	count := 0
	var place func(row int, cols, d1, d2 uint)
	place = func(row int, cols, d1, d2 uint) {
		if row == n {
			count++
			return
		}
		avail := ^(cols | d1 | d2) & (1<<uint(n) - 1)
		for avail != 0 {
			bit := avail & -avail
			avail ^= bit
			place(row+1, cols|bit, (d1|bit)<<1, (d2|bit)>>1)
		}
	}
	place(0, 0, 0, 0)
	return count
}

func main() {
	p := sieve(1000000)
	check(len(p) == 78498 && p[len(p)-1] == 999983, "sieve")

	n := 120
	a := make([][]float64, n)
	id := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		id[i] = make([]float64, n)
		id[i][i] = 1
		for j := range a[i] {
			a[i][j] = float64(i*n + j)
		}
	}
	c := matmul(a, id)
	check(c[7][9] == a[7][9] && c[119][119] == a[119][119], "matmul identity")

	next, reset := counter()
	next()
	next()
	check(next() == 3, "closure")
	reset()
	check(next() == 1, "reset")

	arg, best := collatzMax(100000)
	check(arg == 77031 && best == 351, fmt.Sprint("collatz ", arg, best))
	check(deferOrder() == "x210", "defer order")
	check(queens(8) == 92 && queens(10) == 724, "queens")

	arr := [5]int{1, 2, 3, 4, 5}
	cp := arr
	cp[0] = 99
	check(arr[0] == 1, "array value semantics")
	found := -1
outer:
	for i := 0; i < 10; i++ {
		for j := 0; j < 10; j++ {
			if i*j == 42 {
				found = i*10 + j
				break outer
			}
		}
	}
	check(found == 67, "labeled break")
	// a tiny tokenizer state machine
	var toks []string
	cur := ""
	for _, ch := range "let x = 42 + y1;" {
		switch {
		case ch == ' ':
			if cur != "" {
				toks = append(toks, cur)
				cur = ""
			}
		case strings.ContainsRune("=+;", ch):
			if cur != "" {
				toks = append(toks, cur)
				cur = ""
			}
			toks = append(toks, string(ch))
		default:
			cur += string(ch)
		}
	}
	check(strings.Join(toks, "|") == "let|x|=|42|+|y1|;", "tokens")
	fmt.Println("OK")
}
