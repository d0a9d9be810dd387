//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package main

import (
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

func fakeAgent(record string) int {
	fd := int(os.Stdin.Fd())
	tio, err := unix.IoctlGetTermios(fd, termiosGet)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake agent: not a terminal:", err)
		return 1
	}
	raw := *tio
	raw.Iflag &^= unix.ICRNL | unix.IXON | unix.INLCR | unix.IGNCR
	raw.Lflag &^= unix.ECHO | unix.ICANON | unix.ISIG | unix.IEXTEN
	raw.Cc[unix.VMIN], raw.Cc[unix.VTIME] = 1, 0
	if err := unix.IoctlSetTermios(fd, termiosSet, &raw); err != nil {
		fmt.Fprintln(os.Stderr, "fake agent:", err)
		return 1
	}
	out, err := os.OpenFile(record, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return 1
	}
	os.Stdout.WriteString("\x1b[?2004hfake agent ready\r\n")
	buf := make([]byte, 4096)
	for {
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			fmt.Fprintf(out, "%d %x\n", time.Now().UnixNano(), buf[:n])
		}
		if err != nil {
			return 0
		}
	}
}
