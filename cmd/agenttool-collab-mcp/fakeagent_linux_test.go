package main

import "golang.org/x/sys/unix"

// The terminal-attribute requests of Linux.
const (
	termiosGet = unix.TCGETS
	termiosSet = unix.TCSETS
)
