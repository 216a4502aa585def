// Generics (Go 1.18+): type parameters, constraints, generic types (Stack, ordered map, linked list), Map/Filter/Reduce.
package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

type Number interface {
	~int | ~int32 | ~int64 | ~float32 | ~float64
}

type Ordered interface {
	~int | ~int64 | ~float64 | ~string
}

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

func Filter[T any](xs []T, f func(T) bool) []T {
	var out []T
	for _, x := range xs {
		if f(x) {
			out = append(out, x)
		}
	}
	return out
}

func Reduce[T, A any](xs []T, init A, f func(A, T) A) A {
	acc := init
	for _, x := range xs {
		acc = f(acc, x)
	}
	return acc
}

func Max[T Ordered](a, b T) T {
	if a > b {
		return a
	}
	return b
}

func Keys[K comparable, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}

func SortSlice[T Ordered](s []T) { sort.Slice(s, func(i, j int) bool { return s[i] < s[j] }) }

type Stack[T any] struct{ items []T }

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }
func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

type List[T any] struct {
	head *node[T]
	size int
}
type node[T any] struct {
	val  T
	next *node[T]
}

func (l *List[T]) Prepend(v T) { l.head = &node[T]{v, l.head}; l.size++ }
func (l *List[T]) All() []T {
	var out []T
	for n := l.head; n != nil; n = n.next {
		out = append(out, n.val)
	}
	return out
}

type Pair[K comparable, V any] struct {
	Key K
	Val V
}

type Celsius float64

func main() {
	check(Sum([]int{1, 2, 3}) == 6 && Sum([]float64{0.5, 0.25}) == 0.75, "sum")
	check(Sum([]Celsius{10, 20.5}) == 30.5, "~float64")
	strs := Map([]int{1, 2, 3}, func(i int) string { return strings.Repeat("*", i) })
	check(strings.Join(strs, ",") == "*,**,***", "map")
	evens := Filter([]int{1, 2, 3, 4, 5, 6}, func(i int) bool { return i%2 == 0 })
	check(fmt.Sprint(evens) == "[2 4 6]", "filter")
	total := Reduce([]string{"a", "bb", "ccc"}, 0, func(acc int, s string) int { return acc + len(s) })
	check(total == 6, "reduce")
	check(Max(3, 7) == 7 && Max("pear", "apple") == "pear" && Max[float64](2.5, 1) == 2.5, "max")
	ks := Keys(map[string]int{"b": 1, "a": 2, "c": 3})
	SortSlice(ks)
	check(strings.Join(ks, "") == "abc", "keys")

	var st Stack[string]
	st.Push("x")
	st.Push("y")
	v, ok := st.Pop()
	check(ok && v == "y", "pop")
	st.Pop()
	_, ok = st.Pop()
	check(!ok, "empty pop")
	var l List[Pair[string, int]]
	l.Prepend(Pair[string, int]{"a", 1})
	l.Prepend(Pair[string, int]{"b", 2})
	all := l.All()
	check(l.size == 2 && all[0].Key == "b" && all[1].Val == 1, "list")
	fmt.Println("OK")
}
