package historygen

import (
	"context"
	"path/filepath"
	"testing"
)

// TestKnownReadsAnswerAsTheEngine generates a journal with every known
// read checked against the engine's own answer: any difference fails the
// generation, so passing proves the rules read exactly what they would
// have read without the trick, and so wrote the same rows and events.
func TestKnownReadsAnswerAsTheEngine(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := makeRepo(ctx, repo); err != nil {
		t.Fatal(err)
	}
	res, err := Generate(ctx, Options{Path: filepath.Join(dir, "collab.sqlite"), Root: repo, Events: 1500, checkReads: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, read := range []string{"ReservingTasks", "Reports"} {
		if res.served[read] == 0 {
			t.Errorf("no %s answer was checked: %v", read, res.served)
		}
	}
}
