package main

import (
	"os"
	"strconv"
	"testing"
	"time"
)

// Scale knobs of the reliability suite. The defaults are the sizes CI runs;
// the environment variables scale a run up (or down) without code changes.
const (
	stressProcsEnv   = "COLLAB_STRESS_PROCS"
	stressSecondsEnv = "COLLAB_STRESS_SECONDS"
	crashRoundsEnv   = "COLLAB_CRASH_ROUNDS"

	defaultStressProcs   = 16
	defaultStressSeconds = 6
	defaultCrashRounds   = 30
)

// scale reads a positive integer knob from the environment, falling back
// to def (or to short under -short). A malformed value fails the test
// rather than silently running the default size.
func scale(t *testing.T, name string, def, short int) int {
	t.Helper()
	raw := os.Getenv(name)
	if raw == "" {
		if testing.Short() {
			return short
		}
		return def
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, raw)
	}
	return n
}

// stressSize is the process count and duration of the stress test.
func stressSize(t *testing.T) (procs int, d time.Duration) {
	procs = scale(t, stressProcsEnv, defaultStressProcs, 4)
	secs := scale(t, stressSecondsEnv, defaultStressSeconds, 2)
	return procs, time.Duration(secs) * time.Second
}
