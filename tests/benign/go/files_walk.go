// os file I/O in the working directory: create/append/read/stat/rename/chmod/truncate/seek,
// directories, symlinks, filepath.Walk/WalkDir/Glob, os.ReadDir and a temp dir.
package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "FAIL:", err)
		os.Exit(1)
	}
}

func main() {
	wd, err := os.Getwd()
	must(err)
	check(filepath.IsAbs(wd), "getwd")

	must(os.WriteFile("a.txt", []byte("hello\n"), 0o644))
	f, err := os.OpenFile("a.txt", os.O_APPEND|os.O_WRONLY, 0)
	must(err)
	_, err = f.WriteString("world\n")
	must(err)
	must(f.Sync())
	must(f.Close())
	b, err := os.ReadFile("a.txt")
	must(err)
	check(string(b) == "hello\nworld\n", "append")

	st, err := os.Stat("a.txt")
	must(err)
	check(st.Size() == 12 && st.Mode().IsRegular() && !st.IsDir() && time.Since(st.ModTime()) < time.Minute, "stat")
	must(os.Chmod("a.txt", 0o600))
	st, _ = os.Stat("a.txt")
	check(st.Mode().Perm() == 0o600, "chmod")
	must(os.Chtimes("a.txt", time.Unix(1e9, 0), time.Unix(1e9, 0)))
	st, _ = os.Stat("a.txt")
	check(st.ModTime().Unix() == 1e9, "chtimes")

	f, err = os.OpenFile("a.txt", os.O_RDWR, 0)
	must(err)
	_, err = f.Seek(6, io.SeekStart)
	must(err)
	buf := make([]byte, 5)
	_, err = io.ReadFull(f, buf)
	must(err)
	check(string(buf) == "world", "seek read")
	_, err = f.WriteAt([]byte("J"), 0)
	must(err)
	must(f.Truncate(5))
	f.Close()
	b, _ = os.ReadFile("a.txt")
	check(string(b) == "Jello", "writeat truncate")

	_, err = os.Stat("missing.txt")
	check(errors.Is(err, fs.ErrNotExist) && os.IsNotExist(err), "not exist")
	_, err = os.OpenFile("a.txt", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	check(errors.Is(err, fs.ErrExist), "excl")

	must(os.MkdirAll(filepath.Join("tree", "x", "y"), 0o755))
	must(os.Mkdir(filepath.Join("tree", "z"), 0o755))
	for i, p := range []string{"tree/x/1.go", "tree/x/y/2.go", "tree/z/3.txt", "tree/4.go"} {
		must(os.WriteFile(p, []byte(strings.Repeat("x", i+1)), 0o644))
	}
	must(os.Rename("a.txt", "tree/z/renamed.txt"))
	must(os.Symlink("x/1.go", "tree/link.go"))
	target, err := os.Readlink("tree/link.go")
	must(err)
	check(target == "x/1.go", "readlink")
	lst, _ := os.Lstat("tree/link.go")
	check(lst.Mode()&os.ModeSymlink != 0, "lstat")
	must(os.Link("tree/4.go", "tree/hard.go"))

	var files []string
	var total int64
	must(filepath.Walk("tree", func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			files = append(files, p)
			total += info.Size()
		}
		return nil
	}))
	check(strings.Join(files, ",") == "tree/4.go,tree/hard.go,tree/x/1.go,tree/x/y/2.go,tree/z/3.txt,tree/z/renamed.txt", "walk "+strings.Join(files, ","))
	check(total == 4+4+1+2+3+5, "sizes")
	dirs := 0
	must(filepath.WalkDir("tree", func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() {
			dirs++
			if d.Name() == "y" {
				return filepath.SkipDir
			}
		}
		return err
	}))
	check(dirs == 4, "walkdir")
	gl, err := filepath.Glob("tree/*/*.go")
	must(err)
	check(len(gl) == 1 && gl[0] == "tree/x/1.go", "glob")
	ents, err := os.ReadDir("tree")
	must(err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	check(sort.StringsAreSorted(names) && len(names) == 5, "readdir")
	sub, _ := fs.ReadFile(os.DirFS("tree"), "x/y/2.go")
	check(string(sub) == "xx", "dirfs")
	check(filepath.Ext("a/b.tar.gz") == ".gz" && filepath.Base("/a/b/c") == "c" && filepath.Dir("a/b/c") == "a/b" &&
		filepath.Clean("a/../b/./c//") == "b/c", "filepath")
	rel, _ := filepath.Rel("/a/b", "/a/c/d")
	check(rel == "../c/d", "rel")

	tmp, err := os.MkdirTemp("", "wb-*")
	must(err)
	tf, err := os.CreateTemp(tmp, "f-*.dat")
	must(err)
	tf.Write([]byte("tmp"))
	tf.Close()
	must(os.RemoveAll(tmp))
	_, err = os.Stat(tmp)
	check(os.IsNotExist(err), "removeall tmp")
	must(os.RemoveAll("tree"))
	ents, _ = os.ReadDir(".")
	for _, e := range ents {
		check(e.Name() != "tree", "tree removed")
	}
	fmt.Println("OK")
}
