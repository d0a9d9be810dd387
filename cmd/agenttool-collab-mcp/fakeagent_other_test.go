//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package main

import (
	"fmt"
	"os"
)

// fakeAgent refuses: the stand-in terminal agent needs a Unix terminal,
// and the tests that start it (tmux) skip where there is none.
func fakeAgent(string) int {
	fmt.Fprintln(os.Stderr, "fake agent: needs a Unix terminal")
	return 1
}
