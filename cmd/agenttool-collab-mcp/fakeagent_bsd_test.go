//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package main

import "golang.org/x/sys/unix"

// The terminal-attribute requests of macOS and the BSDs.
const (
	termiosGet = unix.TIOCGETA
	termiosSet = unix.TIOCSETA
)
