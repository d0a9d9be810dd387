//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// ownPeakRSSMB is this process's own peak resident set in MiB: VmHWM of
// its address space on Linux (which, unlike ru_maxrss, starts afresh at
// exec), ru_maxrss elsewhere (KiB on the BSDs, bytes on macOS).
func ownPeakRSSMB() float64 {
	if runtime.GOOS == "linux" {
		return vmHWM(os.Getpid())
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return float64(ru.Maxrss) / (1 << 20)
	}
	return float64(ru.Maxrss) / 1024
}
