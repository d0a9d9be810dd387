package anchor_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/anchor"
)

const (
	testWorkspace = "ws_0123456789abcdef01234567"
	testEpoch     = "epoch_current"
)

// testHead is the journal head every case is checked against: five events
// whose hashes are the digit of their sequence repeated 64 times.
func testHead() anchor.Head {
	return anchor.Head{WorkspaceID: testWorkspace, EpochID: testEpoch, Sequence: 5, Hash: strings.Repeat("5", 64)}
}

// journalSpec describes a fake journal's behaviour; the zero value is a
// valid five-event chain.
type journalSpec struct {
	Valid       *bool   `json:"valid"`
	VerifyError bool    `json:"verify_error"`
	EventError  bool    `json:"event_error"`
	Missing     []int64 `json:"missing"`
}

// fakeJournal answers from journalSpec and records every call.
type fakeJournal struct {
	t    *testing.T
	spec journalSpec

	mu       sync.Mutex
	verifies int
	lookups  []int64
}

func newFakeJournal(t *testing.T, spec journalSpec) *fakeJournal {
	return &fakeJournal{t: t, spec: spec}
}

func (f *fakeJournal) VerifyFull(_ context.Context, workspaceID string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.verifies++
	if workspaceID != testWorkspace {
		f.t.Errorf("VerifyFull(%q), want %q", workspaceID, testWorkspace)
	}
	if f.spec.VerifyError {
		return false, errors.New("journal unavailable")
	}
	return f.spec.Valid == nil || *f.spec.Valid, nil
}

func (f *fakeJournal) EventHashAt(_ context.Context, workspaceID string, sequence int64) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lookups = append(f.lookups, sequence)
	if workspaceID != testWorkspace {
		f.t.Errorf("EventHashAt(%q), want %q", workspaceID, testWorkspace)
	}
	switch {
	case f.spec.EventError:
		return "", false, errors.New("journal unavailable")
	case sequence < 1 || sequence > 5 || slices.Contains(f.spec.Missing, sequence):
		return "", false, nil
	}
	return strings.Repeat(string(rune('0'+sequence)), 64), true, nil
}
