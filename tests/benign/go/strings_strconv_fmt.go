// Strings, strconv and fmt: building, splitting, parsing and formatting.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

func check(ok bool, msg string, args ...interface{}) {
	if !ok {
		fmt.Fprintf(os.Stderr, "FAIL: "+msg+"\n", args...)
		os.Exit(1)
	}
}

type point struct{ X, Y int }

func (p point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

func main() {
	var sb strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&sb, "%d,", i*i)
	}
	s := strings.TrimSuffix(sb.String(), ",")
	check(s == "0,1,4,9,16", "builder %q", s)

	parts := strings.Split(s, ",")
	sum := 0
	for _, p := range parts {
		n, err := strconv.Atoi(p)
		check(err == nil, "atoi %v", err)
		sum += n
	}
	check(sum == 30, "sum %d", sum)

	check(strings.ToUpper("héllo") == "HÉLLO", "upper")
	check(strings.Fields("  a b\t c\n") != nil && len(strings.Fields("  a b\t c\n")) == 3, "fields")
	check(strings.Repeat("ab", 3) == "ababab", "repeat")
	check(strings.Replace("a-b-c", "-", "+", 1) == "a+b-c", "replace")
	check(strings.Index("chicken", "ken") == 4, "index")
	check(strings.EqualFold("Go", "GO"), "fold")
	before, after, found := strings.Cut("key=value", "=")
	check(found && before == "key" && after == "value", "cut")
	check(strings.Map(func(r rune) rune { return r + 1 }, "HAL") == "IBM", "map")

	f, err := strconv.ParseFloat("3.25", 64)
	check(err == nil && f == 3.25, "parsefloat")
	_, err = strconv.Atoi("12x")
	check(err != nil && strings.Contains(err.Error(), "invalid syntax"), "atoi err %v", err)
	u, err := strconv.ParseUint("ff", 16, 64)
	check(err == nil && u == 255, "parseuint")
	_, err = strconv.ParseInt("99999999999999999999", 10, 64)
	check(err != nil, "range err")
	b, _ := strconv.ParseBool("true")
	check(b, "bool")
	check(strconv.Quote("a\"b\n") == `"a\"b\n"`, "quote %s", strconv.Quote("a\"b\n"))
	check(strconv.FormatInt(-255, 2) == "-11111111", "formatint")
	check(strconv.Itoa(1<<40) == "1099511627776", "itoa")

	check(fmt.Sprintf("%5.2f|%-4s|%04d|%x|%q|%v|%+v", 3.14159, "ab", 42, 255, "hi", point{1, 2}, struct{ A int }{7}) ==
		" 3.14|ab  |0042|ff|\"hi\"|(1,2)|{A:7}", "sprintf")
	check(fmt.Sprintf("%e %g %T %t %c %U", 1234.5678, 0.000001, 3.0, true, 'λ', 'λ') == "1.234568e+03 1e-06 float64 true λ U+03BB", "sprintf2 %s",
		fmt.Sprintf("%e %g %T %t %c %U", 1234.5678, 0.000001, 3.0, true, 'λ', 'λ'))
	var a, c int
	var w string
	n, err := fmt.Sscanf("10 word 20", "%d %s %d", &a, &w, &c)
	check(err == nil && n == 3 && a == 10 && w == "word" && c == 20, "sscanf")
	fmt.Println("OK")
}
