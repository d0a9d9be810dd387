package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// longJournal opens a store whose one workspace holds n events, and a
// second connection to the same file for altering it behind the store.
func longJournal(t *testing.T, n int) (*store.Store, string, *sql.DB) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "long.sqlite")
	st, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "verify"})
	if err != nil {
		t.Fatal(err)
	}
	ws := opened.Workspace.ID
	if err := rawWrite(ctx, st, func(tx *Tx) error {
		for i := 1; i < n; i++ {
			if _, err := st.AppendEvent(ctx, tx, ws, benchEvent(i)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { raw.Close() })
	return st, ws, raw
}

// TestVerificationReportsABreakInTheMiddleOfALongChain alters one event
// (or the head) deep inside a 6,000-event journal, past several of the
// batches verification hashes on other cores, and checks that every
// verification entry point finds it: VerifyAll names the same first bad
// sequence and problem the sequential diagnosis always named, and the
// progress reports stop before the chunk holding the break.
func TestVerificationReportsABreakInTheMiddleOfALongChain(t *testing.T) {
	const n = 6000
	cases := []struct {
		name     string
		alter    string
		firstBad int64
		problem  string
		progress string
	}{
		{"intact", "", 0, "", "[2000 4000 6000]"},
		{"payload altered", `UPDATE events SET payload_json = replace(payload_json, 'Parser', 'Lexer') WHERE sequence = 3500`,
			3500, "the stored hash does not match the event's content (the event was altered)", "[2000]"},
		{"actor altered", "UPDATE events SET actor = 'mallory' WHERE sequence = 4001",
			4001, "the stored hash does not match the event's content (the event was altered)", "[2000 4000]"},
		{"link broken", "UPDATE events SET prev_hash = hash WHERE sequence = 2500",
			2500, "prev_hash is not the hash of event 2499", "[2000]"},
		{"event deleted", "DELETE FROM events WHERE sequence = 3001",
			3001, "event 3001 is missing (the next stored event is 3002)", "[2000]"},
		{"head moved", "UPDATE workspaces SET event_head_hash = (SELECT hash FROM events WHERE sequence = 5999)",
			n, "the workspace head hash is not the hash of the last event", "[2000 4000 6000]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, ws, raw := longJournal(t, n)
			if tc.alter != "" {
				if _, err := raw.Exec(tc.alter); err != nil {
					t.Fatal(err)
				}
			}
			valid := tc.problem == ""
			all, err := st.VerifyAll(ctx)
			if err != nil || len(all) != 1 {
				t.Fatalf("VerifyAll: %v %v", all, err)
			}
			if v := all[0]; v.ChainValid != valid || v.FirstBadSequence != tc.firstBad || v.Problem != tc.problem {
				t.Fatalf("VerifyAll reports valid=%v first bad %d %q; want valid=%v %d %q",
					v.ChainValid, v.FirstBadSequence, v.Problem, valid, tc.firstBad, tc.problem)
			}
			if ok, err := st.VerifyJournal(ctx, ws); err != nil || ok != valid {
				t.Fatalf("VerifyJournal = %v, %v; want %v", ok, err, valid)
			}
			var done []int64
			ok, err := st.VerifyWithProgress(ctx, ws, func(d, total int64) {
				if total != n {
					t.Errorf("progress total %d, want %d", total, n)
				}
				done = append(done, d)
			})
			if err != nil || ok != valid || fmt.Sprint(done) != tc.progress {
				t.Fatalf("VerifyWithProgress = %v, %v, progress %v; want %v, %s", ok, err, done, valid, tc.progress)
			}
		})
	}
}
