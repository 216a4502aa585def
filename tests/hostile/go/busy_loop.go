// Hostile: spins on the CPU forever.
package main

var n uint64

func main() {
	for {
		n++
	}
}
