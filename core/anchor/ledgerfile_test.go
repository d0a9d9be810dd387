package anchor_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/anchor"
)

// anchoredLedger is a ledger whose single entry anchors testHead exactly.
func anchoredLedger() []byte {
	return []byte(`{"protocol":"agenttool.collab-zerone-ledger/0.1","anchors":[{"workspace_id":"` + testWorkspace +
		`","epoch_id":"` + testEpoch + `","sequence":5,"head_hash":"` + strings.Repeat("5", 64) +
		`","network":"zerone-testnet-1","status":"confirmed"}]}`)
}

func checkPath(t *testing.T, path string) anchor.Status {
	t.Helper()
	st, err := anchor.Check(context.Background(), path, testHead(), newFakeJournal(t, journalSpec{}))
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	return st
}

func TestLedgerSizeLimitIsFourMebibytesInclusive(t *testing.T) {
	ledger := anchoredLedger()
	cases := []struct {
		name     string
		size     int
		readable bool
	}{
		{"exactly 4 MiB", anchor.MaxLedgerBytes, true},
		{"one byte over", anchor.MaxLedgerBytes + 1, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			padded := append(bytes.Clone(ledger), bytes.Repeat([]byte(" "), tc.size-len(ledger))...)
			path := filepath.Join(t.TempDir(), "ledger.json")
			if err := os.WriteFile(path, padded, 0o600); err != nil {
				t.Fatal(err)
			}
			st := checkPath(t, path)
			if st.LedgerReadable != tc.readable {
				t.Fatalf("ledger_readable = %v (status %s), want %v", st.LedgerReadable, st.Status, tc.readable)
			}
			wantStatus := anchor.StatusAnchored
			if !tc.readable {
				wantStatus = anchor.StatusUnanchored
			}
			if st.Status != wantStatus {
				t.Fatalf("status = %s, want %s", st.Status, wantStatus)
			}
		})
	}
}

func TestDirectoryAtLedgerPathIsUnreadable(t *testing.T) {
	st := checkPath(t, t.TempDir())
	if st.Status != anchor.StatusUnanchored || st.LedgerReadable || st.Anchor != nil || st.LagEvents != nil {
		t.Fatalf("got %+v, want unreadable unanchored", st)
	}
}

func TestEmptyLedgerPathIsUnreadable(t *testing.T) {
	if st := checkPath(t, ""); st.Status != anchor.StatusUnanchored || st.LedgerReadable {
		t.Fatalf("got %+v, want unreadable unanchored", st)
	}
}

func TestStatusJSONHasContractKeyOrder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.json")
	if err := os.WriteFile(path, anchoredLedger(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(checkPath(t, path))
	if err != nil {
		t.Fatal(err)
	}
	top := []string{"workspace_id", "head_sequence", "head_hash", "scope_note", "status",
		"ledger_readable", "anchor", "lag_events", "reason"}
	ref := []string{"sequence", "head_hash", "network", "caip2", "tx_hash", "status",
		"submitted_at", "confirmed_at", "confirmed_height"}
	if got := objectKeys(t, out); strings.Join(got, ",") != strings.Join(top, ",") {
		t.Fatalf("status keys %v, want %v", got, top)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(out, &raw); err != nil {
		t.Fatal(err)
	}
	if got := objectKeys(t, raw["anchor"]); strings.Join(got, ",") != strings.Join(ref, ",") {
		t.Fatalf("anchor keys %v, want %v", got, ref)
	}
}

// objectKeys lists the top-level member names of a JSON object in order.
func objectKeys(t *testing.T, data []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

func TestUnreadableAndEmptyStatusesSerialiseNulls(t *testing.T) {
	out, err := json.Marshal(checkPath(t, filepath.Join(t.TempDir(), "absent.json")))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"ledger_readable":false`, `"anchor":null`, `"lag_events":null`, `"status":"unanchored"`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("%s lacks %s", out, want)
		}
	}
}
