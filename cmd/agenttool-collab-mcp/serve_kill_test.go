//go:build linux

package main

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// TestServeKillNineLosesNoAnsweredWrite runs one `serve --http` process
// with many clients appending reports at once, so that the engine commits
// them in batches (group commit), and kills it with SIGKILL at a random
// point of the load, three times over on the same database: after every
// kill, each append a client was answered for is in the journal exactly
// once, no row or receipt is half-written, the sequence is gapless and
// the chain verifies. On PostgreSQL too when COLLAB_TEST_POSTGRES is set.
func TestServeKillNineLosesNoAnsweredWrite(t *testing.T) {
	engines := []string{"sqlite"}
	if os.Getenv(pgtest.ServerEnv) != "" {
		engines = append(engines, "postgres")
	}
	for _, engine := range engines {
		t.Run(engine, func(t *testing.T) {
			sb := newSandbox(t)
			if engine == "postgres" {
				sb.db = pgtest.FreshDatabase(t)
			}
			repo := sb.repo("kill", map[string]string{"README": "x"})
			const clients, rounds = 24, 3
			for round := 0; round < rounds; round++ {
				a := startServeAppends(t, sb, repo, clients, round)
				a.run(round)
				a.waitAcks(clients + rand.IntN(8*clients))
				a.srv.kill()
				a.halt()
				db := openDB(t, sb.db)
				acked, lost := a.unjournalled(db)
				requireStructuralInvariants(t, db)
				if engine == "sqlite" {
					if f := readJournal(t, sb.db, a.ws); !f.contiguous {
						t.Fatalf("round %d: the journal's sequence has a gap", round)
					}
				}
				verifyChain(t, sb.db)
				db.Close()
				t.Logf("round %d: killed after %d answered appends; %d missing from the journal", round, acked, lost)
				if lost != 0 {
					t.Fatalf("round %d: %d of %d answered appends are not in the journal", round, lost, acked)
				}
			}
		})
	}
}
