package main

import (
	"context"
	"testing"
	"time"

	"github.com/agenttool/collab/core/stress"
)

// Sizes of the team test: machines (each one `serve` in a network
// namespace of its own) and HTTP clients per machine. CI runs issue 41's
// shape, 4 × 16; the variables name exact counts.
const (
	teamServesEnv  = "COLLAB_TEAM_SERVES"
	teamClientsEnv = "COLLAB_TEAM_CLIENTS"
)

var (
	teamServes  = stress.Size{Short: 2, CI: 4, Full: 4}
	teamClients = stress.Size{Short: 4, CI: 16, Full: 16}
)

// TestTeamOnPostgresLosesNothing is a team on one PostgreSQL server:
// four `serve` processes, each a machine of its own (a network namespace
// joined to a test network), reach a durable server over TCP with a
// password, and 16 HTTP clients of each, with tokens from `token add`,
// write at once. It proves, in three rounds:
//   - under a mixed load every client races for the same task each round
//     and exactly one wins; every acknowledged write is journalled once,
//     the sequence gapless and the chain valid;
//   - when one `serve` is killed (SIGKILL) mid-burst, the other machines'
//     clients carry on without a refusal and nothing acknowledged is lost;
//   - when PostgreSQL is killed (SIGKILL to every server process) mid-burst
//     and started again, every client is answered again, a call the crash
//     cut off being repeated with its idempotency key, and nothing
//     acknowledged is lost.
//
// No serve logs the database password. Throughput is logged, never
// asserted (BenchmarkRound3Teams measures it).
func TestTeamOnPostgresLosesNothing(t *testing.T) {
	serves, per := stress.N(t, teamServesEnv, teamServes), stress.N(t, teamClientsEnv, teamClients)
	tm := startPostgresTeam(t, serves, per)
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()

	ws, contested := setupContested(t, tm.client(ctx, tm.machines[0], tm.machines[0].tokens[0]), tm.repo, stress.N(t, httpRoundsEnv, httpRounds))
	l := newLoadLedger()
	elapsed := runLoad(l, tm.clients(ctx), tm.repo, ws, contested)
	t.Logf("%d machines × %d HTTP clients on one PostgreSQL, %d claim races:\n%s", serves, per, len(contested), l.summary(elapsed))
	l.check(t, tm.db, ws, contested)

	t.Run("kill -9 of one serve", func(t *testing.T) {
		calls := tm.clients(ctx)
		tm.bind(calls, "serve-kill")
		b := startBurst(t, tm.machines[0].sb, ws, calls, nil, nil)
		b.waitUntil("every client has appended", b.progressed(b.all(), 2))
		tm.machines[0].srv.kill()
		killed, others := b.all()[:per], b.all()[per:]
		b.waitUntil("the killed machine's clients have noticed", func() bool {
			for _, i := range killed {
				if !b.gone[i] {
					return false
				}
			}
			return true
		})
		b.waitUntil("the other machines' clients have appended again", b.progressed(others, 3))
		b.finish(killed...)
	})

	t.Run("kill -9 of PostgreSQL", func(t *testing.T) {
		tm.restart(0)
		calls := tm.clients(ctx)
		tm.bind(calls, "pg-kill")
		b := startBurst(t, tm.machines[0].sb, ws, calls, lostConnection, pause)
		b.waitUntil("every client has appended", b.progressed(b.all(), 2))
		tm.pg.Crash(t)
		b.waitUntil("every client has appended after the crash", b.progressed(b.all(), 3))
		seen := b.finish()
		t.Logf("%d calls refused while the database was down, first: %v", len(seen), first(seen, 2))
	})
	tm.requireNoPasswordLogged()
}

// pause is a client's wait before repeating a call the database refused
// while down (a short back-off, so that 64 clients do not spin), cut short
// when the burst stops.
func pause(_ int, stop <-chan struct{}) {
	select {
	case <-time.After(20 * time.Millisecond):
	case <-stop:
	}
}
