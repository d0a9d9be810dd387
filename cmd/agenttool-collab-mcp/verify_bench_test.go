package main

import (
	"testing"
)

// BenchmarkJournalVerifyLong times collab_journal_verify of a 50,000-event
// journal through a server process, the whole call a long verification
// is. It is the benchmark of the direct read connections
// (core/store/sqlite/halves.go): run it as it is, and again with
// -tags collab_nodirect, which builds them out, to see their gain.
func BenchmarkJournalVerifyLong(b *testing.B) {
	e := newBenchEnv(b)
	fillJournal(b, e, 50000)
	timed(b, func(int) {
		if v := e.must(b, "collab_journal_verify", map[string]any{"workspace_id": e.ws}); v["chain_valid"] != true {
			b.Fatalf("chain not valid: %v", v)
		}
	})
}
