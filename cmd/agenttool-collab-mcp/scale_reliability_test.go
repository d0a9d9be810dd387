package main

import (
	"testing"
	"time"

	"github.com/agenttool/collab/core/stress"
)

// Sizes of the heavy process-level tests. COLLAB_STRESS=full selects the
// Full column (see core/stress); unset, CI runs the CI column, which is
// still several real processes racing, so every property is exercised on
// every run. The variables below name one exact size and win over both.
const (
	stressProcsEnv   = "COLLAB_STRESS_PROCS"
	stressSecondsEnv = "COLLAB_STRESS_SECONDS"
	crashRoundsEnv   = "COLLAB_CRASH_ROUNDS"
	httpClientsEnv   = "COLLAB_HTTP_LOAD_CLIENTS"
	httpRoundsEnv    = "COLLAB_HTTP_LOAD_ROUNDS"
	claimRoundsEnv   = "COLLAB_CLAIM_RACE_ROUNDS"
)

var (
	stressProcs   = stress.Size{Short: 4, CI: 8, Full: 16}
	stressSeconds = stress.Size{Short: 2, CI: 3, Full: 10}
	crashRounds   = stress.Size{Short: 5, CI: 10, Full: 60}
	httpClients   = stress.Size{Short: 4, CI: 8, Full: 64}
	httpRounds    = stress.Size{Short: 1, CI: 2, Full: 4}
	claimRounds   = stress.Size{Short: 1, CI: 2, Full: 10}
)

// stressSize is the process count and duration of the stress test.
func stressSize(t *testing.T) (procs int, d time.Duration) {
	procs = stress.N(t, stressProcsEnv, stressProcs)
	secs := stress.N(t, stressSecondsEnv, stressSeconds)
	return procs, time.Duration(secs) * time.Second
}
