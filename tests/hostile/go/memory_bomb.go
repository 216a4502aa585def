// Hostile: allocates 10 MB chunks forever, touching every page and keeping them all.
package main

var keep [][]byte

func main() {
	for {
		b := make([]byte, 10<<20)
		for i := 0; i < len(b); i += 4096 {
			b[i] = byte(i)
		}
		keep = append(keep, b)
	}
}
