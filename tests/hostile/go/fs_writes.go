// Hostile: tries to create files on the root filesystem outside the working directory.
// Prints "<path> refused" or "<path> WRITTEN" for each, then "done". Never run as root on a host.
package main

import (
	"fmt"
	"os"
)

func main() {
	for _, p := range []string{"/etc/warmbox_pwned", "/usr/bin/warmbox_pwned", "/warmbox_pwned"} {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err == nil {
			_, err = f.Write([]byte("pwned\n"))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err == nil {
				fmt.Println(p, "WRITTEN")
				continue
			}
		}
		fmt.Fprintln(os.Stderr, p, err)
		fmt.Println(p, "refused")
	}
	fmt.Println("done")
}
