// Sorting, binary search, slices (append/copy/sub-slicing) and maps.
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

type person struct {
	name string
	age  int
}

type byAge []person

func (a byAge) Len() int           { return len(a) }
func (a byAge) Swap(i, j int)      { a[i], a[j] = a[j], a[i] }
func (a byAge) Less(i, j int) bool { return a[i].age < a[j].age }

func main() {
	ints := []int{5, 2, 8, 1, 9, 3}
	sort.Ints(ints)
	check(fmt.Sprint(ints) == "[1 2 3 5 8 9]", "ints")
	i := sort.SearchInts(ints, 5)
	check(i == 3, "search")
	check(sort.IntsAreSorted(ints), "sorted")

	strs := []string{"pear", "apple", "fig"}
	sort.Strings(strs)
	check(strings.Join(strs, ",") == "apple,fig,pear", "strings")

	people := []person{{"al", 30}, {"bo", 25}, {"cy", 35}, {"di", 25}}
	sort.Stable(byAge(people))
	check(people[0].name == "bo" && people[1].name == "di" && people[3].name == "cy", "stable")
	sort.Slice(people, func(i, j int) bool { return people[i].name > people[j].name })
	check(people[0].name == "di", "slice")
	sort.Sort(sort.Reverse(sort.IntSlice(ints)))
	check(ints[0] == 9, "reverse")

	// slices
	s := make([]int, 0, 2)
	for i := 0; i < 100; i++ {
		s = append(s, i)
	}
	check(len(s) == 100 && cap(s) >= 100, "append")
	t := make([]int, 10)
	n := copy(t, s[50:])
	check(n == 10 && t[0] == 50 && t[9] == 59, "copy")
	sub := s[10:20:25]
	check(len(sub) == 10 && cap(sub) == 15, "3-index")
	s = append(s[:5], s[6:]...)
	check(len(s) == 99 && s[5] == 6, "delete")
	grid := make([][]float64, 4)
	for i := range grid {
		grid[i] = make([]float64, 4)
		grid[i][i] = 1
	}
	check(grid[2][2] == 1 && grid[2][3] == 0, "2d")

	// maps
	counts := map[string]int{}
	for _, w := range strings.Fields("the cat and the dog and the bird") {
		counts[w]++
	}
	check(counts["the"] == 3 && counts["and"] == 2 && len(counts) == 5, "counts")
	if _, ok := counts["fish"]; ok {
		check(false, "missing key")
	}
	delete(counts, "the")
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	check(strings.Join(keys, " ") == "and bird cat dog", "keys")
	nested := map[string]map[int]bool{}
	nested["a"] = map[int]bool{1: true}
	check(nested["a"][1] && !nested["b"][2], "nested")
	big := make(map[int]int, 100000)
	for i := 0; i < 100000; i++ {
		big[i] = i * 2
	}
	check(len(big) == 100000 && big[99999] == 199998, "big map")
	fmt.Println("OK")
}
