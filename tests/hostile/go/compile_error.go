// Does not compile: uses an undeclared identifier, so `go build` fails naming it.
package main

import "fmt"

func main() {
	fmt.Println(undeclared_thing)
}
