// bufio and io: Scanner (lines, words, custom split), Reader/Writer, io.Copy, Pipe, MultiWriter, TeeReader, LimitReader, SectionReader.
package main

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
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
	text := "line one\nline two\n\nlast line without newline"
	sc := bufio.NewScanner(strings.NewReader(text))
	var lines []string
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	check(sc.Err() == nil && len(lines) == 4 && lines[3] == "last line without newline", "lines")
	ws := bufio.NewScanner(strings.NewReader(text))
	ws.Split(bufio.ScanWords)
	n := 0
	for ws.Scan() {
		n++
	}
	check(n == 8, "words")
	cs := bufio.NewScanner(strings.NewReader("a,b,c"))
	cs.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexByte(data, ','); i >= 0 {
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	var toks []string
	for cs.Scan() {
		toks = append(toks, cs.Text())
	}
	check(strings.Join(toks, "") == "abc", "custom split")

	// buffered file write and read in the working directory
	f, err := os.Create("buf.txt")
	check(err == nil, "create")
	bw := bufio.NewWriterSize(f, 4096)
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(bw, "%06d\n", i)
	}
	check(bw.Flush() == nil && f.Close() == nil, "flush")
	f, _ = os.Open("buf.txt")
	br := bufio.NewReader(f)
	count := 0
	for {
		l, err := br.ReadString('\n')
		if err == io.EOF {
			break
		}
		check(err == nil && len(l) == 7, "readstring")
		count++
	}
	f.Close()
	check(count == 20000, "count")
	br = bufio.NewReader(strings.NewReader("héllo"))
	r, size, _ := br.ReadRune()
	check(r == 'h' && size == 1, "readrune")
	br.ReadRune()
	check(br.UnreadRune() == nil, "unread")
	pk, _ := br.Peek(2)
	check(string(pk) == "é", "peek")

	// io.Pipe between goroutines, MultiWriter and TeeReader
	pr, pw := io.Pipe()
	go func() {
		for i := 0; i < 100; i++ {
			pw.Write(bytes.Repeat([]byte{byte('a' + i%26)}, 1000))
		}
		pw.Close()
	}()
	h := sha256.New()
	var copyBuf bytes.Buffer
	nn, err := io.Copy(io.MultiWriter(h, &copyBuf), pr)
	check(err == nil && nn == 100000 && copyBuf.Len() == 100000, "pipe copy")
	var tee bytes.Buffer
	all, _ := io.ReadAll(io.TeeReader(io.LimitReader(strings.NewReader("0123456789"), 4), &tee))
	check(string(all) == "0123" && tee.String() == "0123", "tee limit")
	sr := io.NewSectionReader(strings.NewReader("0123456789"), 3, 4)
	sec, _ := io.ReadAll(sr)
	check(string(sec) == "3456", "section")
	mr := io.MultiReader(strings.NewReader("ab"), strings.NewReader("cd"))
	buf := make([]byte, 3)
	_, err = io.ReadFull(mr, buf)
	check(err == nil && string(buf) == "abc", "readfull")
	_, err = io.ReadFull(strings.NewReader("x"), buf)
	check(err == io.ErrUnexpectedEOF, "unexpected eof")
	var sb strings.Builder
	io.CopyN(&sb, strings.NewReader("abcdef"), 2)
	check(sb.String() == "ab", "copyn")
	os.Remove("buf.txt")
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "buffered stdout")
	w.Flush()
	fmt.Println("OK")
}
