// compress/gzip, compress/zlib, compress/flate and archive/tar+zip, to files in the working directory and in memory.
package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
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
	data := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog\n", 5000))

	f, err := os.Create("data.gz")
	check(err == nil, "create")
	gw, _ := gzip.NewWriterLevel(f, gzip.BestCompression)
	gw.Name = "data.txt"
	_, err = gw.Write(data)
	check(err == nil && gw.Close() == nil && f.Close() == nil, "gzip write")
	st, _ := os.Stat("data.gz")
	check(st.Size() < int64(len(data))/20, "compressed well")
	f, _ = os.Open("data.gz")
	gr, err := gzip.NewReader(f)
	check(err == nil && gr.Name == "data.txt", "gzip header")
	back, err := io.ReadAll(gr)
	check(err == nil && bytes.Equal(back, data), "gunzip")
	f.Close()
	_, err = gzip.NewReader(strings.NewReader("this is definitely not gzip data"))
	check(err == gzip.ErrHeader, "bad header")

	var zb bytes.Buffer
	zw := zlib.NewWriter(&zb)
	zw.Write(data)
	zw.Close()
	zr, err := zlib.NewReader(&zb)
	check(err == nil, "zlib reader")
	back, _ = io.ReadAll(zr)
	check(bytes.Equal(back, data), "zlib")

	var fb bytes.Buffer
	fw, _ := flate.NewWriter(&fb, flate.BestSpeed)
	fw.Write(data)
	fw.Close()
	back, _ = io.ReadAll(flate.NewReader(&fb))
	check(bytes.Equal(back, data), "flate")

	var tb bytes.Buffer
	tw := tar.NewWriter(&tb)
	for _, name := range []string{"a.txt", "dir/b.txt"} {
		body := "contents of " + name
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body))})
		tw.Write([]byte(body))
	}
	tw.Close()
	tr := tar.NewReader(&tb)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		check(err == nil, "tar next")
		b, _ := io.ReadAll(tr)
		check(string(b) == "contents of "+h.Name, "tar body")
		names = append(names, h.Name)
	}
	check(strings.Join(names, ",") == "a.txt,dir/b.txt", "tar names")

	zf, _ := os.Create("out.zip")
	zwr := zip.NewWriter(zf)
	w, _ := zwr.Create("hello.txt")
	w.Write(data)
	zwr.Close()
	zf.Close()
	zrd, err := zip.OpenReader("out.zip")
	check(err == nil && len(zrd.File) == 1, "zip open")
	rc, _ := zrd.File[0].Open()
	back, _ = io.ReadAll(rc)
	rc.Close()
	zrd.Close()
	check(bytes.Equal(back, data), "zip")
	os.Remove("data.gz")
	os.Remove("out.zip")
	fmt.Println("OK")
}
