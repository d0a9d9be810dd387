package wake_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

func TestOneCommitWakesEverySubscriberOfTheSharedPoller(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "c.sqlite")
	st, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	// The writer is another connection pool, as another process would be.
	other, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	changes := wake.NewChanges(st)
	var waits []<-chan struct{}
	var releases []func()
	for i := 0; i < 50; i++ {
		next, release := changes.Subscribe()
		waits, releases = append(waits, next()), append(releases, release)
	}
	if _, err := other.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "a", RepositoryKey: "k"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(10 * time.Second)
	for i, ch := range waits {
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("subscriber %d was not woken (probe error: %v)", i, changes.Err())
		}
	}
	for _, r := range releases {
		r()
		r() // releasing twice is harmless
	}
	next, release := changes.Subscribe()
	defer release()
	select {
	case <-next():
		t.Fatal("a fresh subscriber was woken with no commit after it subscribed")
	case <-time.After(3 * wake.PollInterval):
	}
}
