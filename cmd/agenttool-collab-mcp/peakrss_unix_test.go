//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSMB is a finished process's peak resident set in MiB (ru_maxrss:
// KiB on Linux and the BSDs, bytes on macOS).
func peakRSSMB(ps *os.ProcessState) float64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return float64(ru.Maxrss) / (1 << 20)
	}
	return float64(ru.Maxrss) / 1024
}
