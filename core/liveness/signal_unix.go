//go:build unix

package liveness

import (
	"errors"
	"syscall"
)

// signalZero asks the system whether process pid exists, sending no
// signal: no such process is Exited; one this user may not signal still
// runs.
func signalZero(pid int) Process {
	err := syscall.Kill(pid, 0)
	switch {
	case err == nil, errors.Is(err, syscall.EPERM):
		return Running
	case errors.Is(err, syscall.ESRCH):
		return Exited
	}
	return Unknown
}
