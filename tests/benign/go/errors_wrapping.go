// errors: sentinel errors, custom error types, %w wrapping, errors.Is/As/Unwrap, panics recovered into errors.
package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

var ErrNotFound = errors.New("not found")

type ValidationError struct {
	Field string
	Err   error
}

func (e *ValidationError) Error() string { return "invalid " + e.Field + ": " + e.Err.Error() }
func (e *ValidationError) Unwrap() error { return e.Err }

type tempErr struct{}

func (tempErr) Error() string   { return "temporary" }
func (tempErr) Temporary() bool { return true }

func lookup(key string) (int, error) {
	if key == "" {
		return 0, &ValidationError{"key", errors.New("empty")}
	}
	if key == "x" {
		return 0, fmt.Errorf("lookup %q: %w", key, ErrNotFound)
	}
	n, err := strconv.Atoi(key)
	if err != nil {
		return 0, fmt.Errorf("lookup %q: %w", key, &ValidationError{"key", err})
	}
	return n, nil
}

func safeDiv(a, b int) (q int, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	return a / b, nil
}

func main() {
	_, err := lookup("x")
	check(errors.Is(err, ErrNotFound) && err.Error() == `lookup "x": not found`, "sentinel")
	_, err = lookup("abc")
	var ve *ValidationError
	check(errors.As(err, &ve) && ve.Field == "key", "as")
	var ne *strconv.NumError
	check(errors.As(err, &ne) && ne.Func == "Atoi" && errors.Is(err, strconv.ErrSyntax), "chain to NumError")
	_, err = lookup("")
	check(err.Error() == "invalid key: empty" && errors.Unwrap(err).Error() == "empty", "unwrap")
	n, err := lookup("42")
	check(err == nil && n == 42, "ok path")

	wrapped := fmt.Errorf("layer2: %w", fmt.Errorf("layer1: %w", tempErr{}))
	var tmp interface{ Temporary() bool }
	check(errors.As(wrapped, &tmp) && tmp.Temporary(), "as interface")
	check(errors.Unwrap(errors.Unwrap(wrapped)) == tempErr{}, "double unwrap")

	_, err = os.Open("does-not-exist")
	var pe *fs.PathError
	check(errors.As(err, &pe) && pe.Op == "open" && errors.Is(err, fs.ErrNotExist), "patherror")

	_, err = safeDiv(1, 0)
	check(err != nil && err.Error() == "recovered: runtime error: integer divide by zero", "recover")
	func() {
		defer func() {
			r := recover()
			check(r != nil, "index panic")
			re, ok := r.(interface{ RuntimeError() })
			check(ok && re != nil, "runtime error")
		}()
		var s []int
		_ = s[5]
	}()
	func() {
		defer func() { check(recover() == "custom", "custom panic value") }()
		panic("custom")
	}()
	var nilErr *ValidationError
	var iface error = nilErr
	check(iface != nil, "typed nil is not nil")
	fmt.Println("OK")
}
