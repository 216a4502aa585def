// encoding/csv: writing a file in the working directory, reading it back, quoting and errors.
package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func main() {
	f, err := os.Create("data.csv")
	check(err == nil, "create")
	w := csv.NewWriter(f)
	check(w.Write([]string{"id", "name", "score"}) == nil, "header")
	for i := 0; i < 500; i++ {
		name := fmt.Sprintf("name %d", i)
		if i%7 == 0 {
			name = fmt.Sprintf("tricky, \"quoted\"\nline %d", i)
		}
		check(w.Write([]string{strconv.Itoa(i), name, strconv.FormatFloat(float64(i)/4, 'f', 2, 64)}) == nil, "row")
	}
	w.Flush()
	check(w.Error() == nil, "flush")
	check(f.Close() == nil, "close")

	f, err = os.Open("data.csv")
	check(err == nil, "open")
	r := csv.NewReader(f)
	hdr, err := r.Read()
	check(err == nil && strings.Join(hdr, "|") == "id|name|score", "read header")
	n, total := 0, 0.0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		check(err == nil && len(rec) == 3, "record")
		if n%7 == 0 {
			check(strings.HasPrefix(rec[1], "tricky, \"quoted\"\nline"), "quoted field")
		}
		v, err := strconv.ParseFloat(rec[2], 64)
		check(err == nil, "float")
		total += v
		n++
	}
	f.Close()
	check(n == 500 && total == 31187.5, "totals")

	// other delimiters, comments, ReadAll
	r = csv.NewReader(strings.NewReader("# comment\na;b;c\n1;2;3\n"))
	r.Comma = ';'
	r.Comment = '#'
	all, err := r.ReadAll()
	check(err == nil && len(all) == 2 && all[1][2] == "3", "readall")
	r = csv.NewReader(strings.NewReader("a,b\n1,2,3\n"))
	_, err = r.ReadAll()
	check(err != nil && strings.Contains(err.Error(), "wrong number of fields"), "field count error")
	_, err = csv.NewReader(strings.NewReader("a,\"b\n")).ReadAll()
	check(err != nil, "bad quote")
	check(os.Remove("data.csv") == nil, "remove")
	fmt.Println("OK")
}
