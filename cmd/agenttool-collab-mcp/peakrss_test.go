package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// peakFileEnv names the file a child of the benchmarks writes its own
// peak resident set to, in MiB, when its command returns. The parent
// cannot read it from the child's rusage: on Linux ru_maxrss carries the
// high-water mark of the process that forked it (exec keeps the larger of
// the old and new address spaces' peaks), so a child of a large test
// process reads as large as its parent.
const peakFileEnv = "COLLAB_BENCH_PEAK_FILE"

// recordOwnPeak writes this process's own peak resident set to the file
// peakFileEnv names, if any. A failure is reported on stderr and
// otherwise ignored: it costs the figure, not the command.
func recordOwnPeak() {
	path := os.Getenv(peakFileEnv)
	if path == "" {
		return
	}
	if err := os.WriteFile(path, []byte(strconv.FormatFloat(ownPeakRSSMB(), 'f', 2, 64)), 0o600); err != nil {
		fmt.Fprintf(os.Stderr, "record the peak resident set: %v\n", err)
	}
}

// childPeakRSSMB reads what a child wrote through recordOwnPeak; 0 when
// it wrote nothing (a system that reports no peak).
func childPeakRSSMB(tb testing.TB, path string) float64 {
	raw, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		tb.Fatalf("read the child's peak resident set: %v", err)
	}
	mb, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	if err != nil {
		tb.Fatalf("read the child's peak resident set %q: %v", raw, err)
	}
	return mb
}
