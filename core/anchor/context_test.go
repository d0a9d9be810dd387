package anchor_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/anchor"
)

// cancellingJournal cancels the check's context during VerifyFull and
// reports the cancellation, like a store whose query was interrupted.
type cancellingJournal struct{ cancel context.CancelFunc }

func (c cancellingJournal) VerifyFull(ctx context.Context, _ string) (bool, error) {
	c.cancel()
	return false, ctx.Err()
}

func (cancellingJournal) EventHashAt(context.Context, string, int64) (string, bool, error) {
	return "", false, errors.New("not reached")
}

func TestCancelledContextIsAnErrorNotAConflict(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ledger.json")
	if err := os.WriteFile(path, anchoredLedger(), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := anchor.Check(ctx, path, testHead(), cancellingJournal{cancel})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Check error = %v, want context.Canceled", err)
	}
}
