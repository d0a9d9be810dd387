package anchor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/anchor"
)

// checkCase is one testdata/check/*.json file: a ledger (as JSON, as raw
// text, or absent), the journal's behaviour, and the expected outcome.
type checkCase struct {
	About      string          `json:"about"`
	Ledger     json.RawMessage `json:"ledger"`
	LedgerText *string         `json:"ledger_text"`
	Journal    journalSpec     `json:"journal"`
	Want       json.RawMessage `json:"want"`
	Mentions   []string        `json:"reason_mentions"`
	Calls      struct {
		VerifyFull  int     `json:"verify_full"`
		EventHashAt []int64 `json:"event_hash_at"`
	} `json:"calls"`
}

// outcome is the part of a Status that the decision table fixes.
type outcome struct {
	Status         string      `json:"status"`
	LedgerReadable bool        `json:"ledger_readable"`
	Anchor         *anchor.Ref `json:"anchor"`
	LagEvents      *int64      `json:"lag_events"`
}

// TestCheckFollowsDecisionTable runs every testdata/check case: one or more
// per row of the decision table, plus entry validation, sorting and clamping.
func TestCheckFollowsDecisionTable(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "check", "*.json"))
	if len(files) == 0 {
		t.Fatal("no testdata/check cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".json"), func(t *testing.T) {
			tc := loadCase(t, file)
			path := placeLedger(t, tc)
			j := newFakeJournal(t, tc.Journal)
			got, err := anchor.Check(context.Background(), path, testHead(), j)
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			requireOutcome(t, got, tc.Want)
			requireBase(t, got, path)
			for _, m := range tc.Mentions {
				if !strings.Contains(got.Reason, m) {
					t.Errorf("reason %q does not mention %q", got.Reason, m)
				}
			}
			if j.verifies != tc.Calls.VerifyFull || !slices.Equal(j.lookups, tc.Calls.EventHashAt) {
				t.Errorf("journal calls: verify %d, lookups %v; want %d, %v",
					j.verifies, j.lookups, tc.Calls.VerifyFull, tc.Calls.EventHashAt)
			}
		})
	}
}

func loadCase(t *testing.T, file string) checkCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var tc checkCase
	if err := json.Unmarshal(data, &tc); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return tc
}

// placeLedger writes the case's ledger into a temp dir and returns its
// path; with no ledger in the case, the path names a missing file.
func placeLedger(t *testing.T, tc checkCase) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "collab-zerone-anchors.json")
	var data []byte
	switch {
	case tc.LedgerText != nil:
		data = []byte(*tc.LedgerText)
	case tc.Ledger != nil:
		data = tc.Ledger
	default:
		return path
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func requireOutcome(t *testing.T, got anchor.Status, want json.RawMessage) {
	t.Helper()
	gotJSON, err := json.Marshal(outcome{got.Status, got.LedgerReadable, got.Anchor, got.LagEvents})
	if err != nil {
		t.Fatal(err)
	}
	var g, w any
	if err := json.Unmarshal(gotJSON, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	gc, _ := json.Marshal(g)
	wc, _ := json.Marshal(w)
	if !bytes.Equal(gc, wc) {
		t.Fatalf("outcome\n got %s\nwant %s", gc, wc)
	}
}

// requireBase checks the fields every Status carries whatever the ledger:
// the head echoed back, prose present, and the path nowhere in the JSON.
func requireBase(t *testing.T, got anchor.Status, path string) {
	t.Helper()
	head := testHead()
	if got.WorkspaceID != head.WorkspaceID || got.HeadSequence != head.Sequence || got.HeadHash != head.Hash {
		t.Errorf("head fields %q %d %q, want %+v", got.WorkspaceID, got.HeadSequence, got.HeadHash, head)
	}
	if got.ScopeNote != anchor.ScopeNote || got.Reason == "" {
		t.Errorf("scope_note %q, reason %q", got.ScopeNote, got.Reason)
	}
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(out, []byte(path)) || bytes.Contains(out, []byte(filepath.Dir(path))) ||
		bytes.Contains(out, []byte("ledger_path")) {
		t.Errorf("result exposes the ledger path: %s", out)
	}
}
