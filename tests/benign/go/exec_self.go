// os/exec: run this same program (os.Executable) as a child with an argument, piping stdin,
// capturing stdout/stderr, reading exit codes, environment and a StdoutPipe.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

func check(ok bool, msg string) {
	if !ok {
		fmt.Fprintln(os.Stderr, "FAIL:", msg)
		os.Exit(1)
	}
}

func child(mode string) {
	switch mode {
	case "upper":
		b, _ := io.ReadAll(os.Stdin)
		os.Stdout.Write(bytes.ToUpper(b))
	case "exit3":
		fmt.Fprintln(os.Stderr, "child says bye")
		os.Exit(3)
	case "env":
		fmt.Print(os.Getenv("WB_CHILD"))
	case "count":
		for i := 0; i < 5; i++ {
			fmt.Println(i)
		}
	}
	os.Exit(0)
}

func main() {
	if len(os.Args) > 1 {
		child(os.Args[1])
	}
	self, err := os.Executable()
	check(err == nil && self != "", "executable")

	cmd := exec.Command(self, "upper")
	cmd.Stdin = strings.NewReader("piped text")
	out, err := cmd.Output()
	check(err == nil && string(out) == "PIPED TEXT", "upper")

	var stderr bytes.Buffer
	cmd = exec.Command(self, "exit3")
	cmd.Stderr = &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	check(errors.As(err, &ee) && ee.ExitCode() == 3, "exit code")
	check(stderr.String() == "child says bye\n", "stderr")

	cmd = exec.Command(self, "env")
	cmd.Env = append(os.Environ(), "WB_CHILD=hello")
	out, err = cmd.CombinedOutput()
	check(err == nil && string(out) == "hello", "env")

	cmd = exec.Command(self, "count")
	pipe, err := cmd.StdoutPipe()
	check(err == nil, "pipe")
	check(cmd.Start() == nil, "start")
	check(cmd.Process.Pid > 0, "pid")
	sc := bufio.NewScanner(pipe)
	n := 0
	for sc.Scan() {
		n++
	}
	check(cmd.Wait() == nil && n == 5 && cmd.ProcessState.Success(), "wait")

	// several children concurrently
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() { errs <- exec.Command(self, "count").Run() }()
	}
	for i := 0; i < 4; i++ {
		check(<-errs == nil, "concurrent")
	}
	_, err = exec.LookPath("definitely-not-a-command-xyz")
	check(err != nil, "lookpath")
	err = exec.Command("/nonexistent/binary").Run()
	check(err != nil, "missing binary")
	fmt.Println("OK")
}
