// regexp: compile, match, submatches, named groups, replace with functions and split.
package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	email := regexp.MustCompile(`^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$`)
	check(email.MatchString("bob.smith@example.com") && !email.MatchString("bob@@x"), "email")

	date := regexp.MustCompile(`(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})`)
	m := date.FindStringSubmatch("released on 2023-07-14, patched 2023-08-01")
	check(len(m) == 4 && m[1] == "2023" && m[date.SubexpIndex("day")] == "14", "submatch")
	all := date.FindAllString("2023-07-14 x 2023-08-01 y 1999-12-31", -1)
	check(len(all) == 3 && all[2] == "1999-12-31", "findall")
	check(date.ReplaceAllString("on 2023-07-14", "${day}/${month}/${year}") == "on 14/07/2023", "replace")
	idx := date.FindAllStringSubmatchIndex("a 2000-01-02", -1)
	check(len(idx) == 1 && idx[0][0] == 2, "index")

	words := regexp.MustCompile(`\b\w+\b`)
	up := words.ReplaceAllStringFunc("hello big world", func(w string) string {
		return strings.ToUpper(w[:1]) + w[1:]
	})
	check(up == "Hello Big World", "replacefunc")
	check(strings.Join(regexp.MustCompile(`\s*[,;]\s*`).Split("a , b;c ;  d", -1), "|") == "a|b|c|d", "split")

	_, err := regexp.Compile(`a(b`)
	check(err != nil && strings.Contains(err.Error(), "missing closing )"), "compile error")
	ci := regexp.MustCompile(`(?i)gopher`)
	check(ci.MatchString("GoPhEr"), "case insensitive")
	ml := regexp.MustCompile(`(?m)^(\w+):`)
	keys := ml.FindAllStringSubmatch("a: 1\nbb: 2\nccc: 3", -1)
	check(len(keys) == 3 && keys[2][1] == "ccc", "multiline")
	uni := regexp.MustCompile(`\p{Greek}+`)
	check(uni.FindString("abc αβγ def") == "αβγ", "unicode class")
	check(regexp.QuoteMeta("a.b*c") == `a\.b\*c`, "quotemeta")
	lit := regexp.MustCompile(`x+`)
	check(string(lit.ReplaceAll([]byte("axxbxc"), []byte("-"))) == "a-b-c", "bytes")
	// a largish input
	text := strings.Repeat("foo123bar456 ", 10000)
	nums := regexp.MustCompile(`\d+`).FindAllString(text, -1)
	check(len(nums) == 20000, "large")
	fmt.Println("OK")
}
