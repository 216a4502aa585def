// Hostile: writes 64 KiB chunks to stdout forever (stops only if stdout itself fails).
package main

import (
	"bytes"
	"os"
)

func main() {
	chunk := bytes.Repeat([]byte{'x'}, 64<<10)
	for {
		if _, err := os.Stdout.Write(chunk); err != nil {
			os.Exit(1)
		}
	}
}
