package anchor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agenttool/collab/core/canon"
)

// digitChain is a valid five-event journal whose event n has the hash made
// of the digit n repeated 64 times (the same journal the black-box tests use).
type digitChain struct{}

func (digitChain) VerifyFull(context.Context, string) (bool, error) { return true, nil }

func (digitChain) EventHashAt(_ context.Context, _ string, seq int64) (string, bool, error) {
	if seq < 1 || seq > 5 {
		return "", false, nil
	}
	return strings.Repeat(string(rune('0'+seq)), 64), true, nil
}

// FuzzLedger feeds arbitrary bytes as the ledger content (file reading is
// covered by the black-box tests; skipping it keeps the fuzzer fast). The
// check must never panic or fail, and every result must be internally
// consistent and serialisable. Seeds are the ledgers of testdata/check.
func FuzzLedger(f *testing.F) {
	for _, seed := range checkCaseLedgers(f) {
		f.Add(seed)
	}
	head := Head{WorkspaceID: "ws_0123456789abcdef01234567", EpochID: "epoch_current", Sequence: 5, Hash: strings.Repeat("5", 64)}
	f.Fuzz(func(t *testing.T, ledger []byte) {
		base := Status{WorkspaceID: head.WorkspaceID, HeadSequence: head.Sequence, HeadHash: head.Hash, ScopeNote: ScopeNote}
		st, err := fromLedger(context.Background(), base, ledger, head, digitChain{})
		if err != nil {
			t.Fatalf("check failed: %v", err)
		}
		requireConsistent(t, st)
	})
}

// checkCaseLedgers returns the ledger bytes of every testdata/check case.
func checkCaseLedgers(f *testing.F) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", "check", "*.json"))
	var out [][]byte
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var tc struct {
			Ledger     json.RawMessage `json:"ledger"`
			LedgerText *string         `json:"ledger_text"`
		}
		if err := json.Unmarshal(data, &tc); err != nil {
			f.Fatal(err)
		}
		switch {
		case tc.LedgerText != nil:
			out = append(out, []byte(*tc.LedgerText))
		case tc.Ledger != nil:
			out = append(out, tc.Ledger)
		}
	}
	return out
}

// requireConsistent checks the invariants that hold for every Status.
func requireConsistent(t *testing.T, st Status) {
	t.Helper()
	states := []string{StatusUnanchored, StatusPending, StatusAnchored, StatusStale, StatusConflict}
	if !slices.Contains(states, st.Status) {
		t.Fatalf("unknown status %q", st.Status)
	}
	if !st.LedgerReadable && (st.Status != StatusUnanchored || st.Anchor != nil || st.LagEvents != nil) {
		t.Fatalf("unreadable ledger with %+v", st)
	}
	if st.Anchor == nil && st.Status != StatusUnanchored {
		t.Fatalf("status %s without an anchor", st.Status)
	}
	hasLag := st.Status == StatusAnchored || st.Status == StatusStale
	if (st.LagEvents != nil) != hasLag || (hasLag && *st.LagEvents < 0) ||
		(st.Status == StatusAnchored && *st.LagEvents != 0) {
		t.Fatalf("lag_events inconsistent with %s", st.Status)
	}
	out, err := json.Marshal(st)
	if err != nil || !utf8.Valid(out) {
		t.Fatalf("result does not serialise: %v", err)
	}
	if r := st.Anchor; r != nil {
		requireClamped(t, r.HeadHash, maxHashUnits)
		requireClamped(t, r.Network, maxNetworkUnits)
		requireClamped(t, r.Status, maxStatusUnits)
		for _, p := range []*string{r.CAIP2, r.SubmittedAt, r.ConfirmedAt} {
			if p != nil {
				requireClamped(t, *p, maxTimeUnits)
			}
		}
		if r.TxHash != nil {
			requireClamped(t, *r.TxHash, maxHashUnits)
		}
	}
}

func requireClamped(t *testing.T, s string, limit int) {
	t.Helper()
	if n := canon.LengthUTF16(s); n > limit+1 || (n == limit+1 && !strings.HasSuffix(s, ellipsis)) {
		t.Fatalf("%q exceeds %d units", s, limit)
	}
	if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		t.Fatalf("%q keeps a control character", s)
	}
}
