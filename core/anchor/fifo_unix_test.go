//go:build unix

package anchor_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agenttool/collab/core/anchor"
)

// TestFIFOLedgerFailsOpenWithoutBlocking places a FIFO with no writer at the
// ledger path; a plain open would block forever.
func TestFIFOLedgerFailsOpenWithoutBlocking(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	type result struct {
		st  anchor.Status
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := anchor.Check(context.Background(), path, testHead(), newFakeJournal(t, journalSpec{}))
		done <- result{st, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || r.st.Status != anchor.StatusUnanchored || r.st.LedgerReadable {
			t.Fatalf("got %+v, %v; want unreadable unanchored", r.st, r.err)
		}
	case <-time.After(5 * time.Second):
		// Unblock the stuck open so the goroutine can finish.
		if w, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		t.Fatal("Check blocked on a FIFO ledger")
	}
}

func TestSymlinkToLedgerIsFollowed(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := os.WriteFile(real, anchoredLedger(), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "ledger.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if st := checkPath(t, link); st.Status != anchor.StatusAnchored {
		t.Fatalf("status = %s, want %s", st.Status, anchor.StatusAnchored)
	}
}
