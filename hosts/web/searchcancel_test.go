package web_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/web"
)

// wordyDatabase writes n tasks of 300 random words each, on which NEAR
// over one-letter prefixes takes tens of seconds.
func wordyDatabase(t testing.TB, n int) (string, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "wordy.sqlite")
	st, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "wordy"})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(36))
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := 0; j < 300; j++ {
			for k := 3 + r.Intn(6); k > 0; k-- {
				b.WriteByte(byte('a' + r.Intn(26)))
			}
			b.WriteByte(' ')
		}
		desc := b.String()
		in := store.CreateTaskInput{WorkspaceID: opened.Workspace.ID, IdempotencyKey: fmt.Sprintf("w%d", i),
			Title: fmt.Sprintf("wordy task %d", i), Description: &desc}
		if _, err := st.CreateTask(ctx, store.LabelActor("wordy"), in); err != nil {
			t.Fatal(err)
		}
	}
	return path, opened.Workspace.ID
}

// finishing records when each search the page asked for began and
// returned.
type finishing struct {
	inner   web.Searcher
	started chan struct{}
	done    chan error
}

func (f finishing) Search(ctx context.Context, q web.SearchQuery) (web.SearchResult, error) {
	f.started <- struct{}{}
	res, err := f.inner.Search(ctx, q)
	f.done <- err
	return res, err
}

// TestASearchEndsWhenItsBrowserGoesAway: two people search with a query
// only the deadline would stop; the first keeps waiting, the second gives
// up. The second search must end inside SQLite at once, without waiting
// for the first.
func TestASearchEndsWhenItsBrowserGoesAway(t *testing.T) {
	path, ws := wordyDatabase(t, 200)
	st := readOnly(t, path)
	huge := search.Limits{Length: 1 << 30, Terms: 1 << 30, Prefixes: 1 << 30, NearWidth: 1 << 30}
	ix, err := search.OpenWith(context.Background(), st, search.Options{Limits: huge, Deadline: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	if _, err := ix.Search(context.Background(), search.Query{Text: "wordy"}); err != nil {
		t.Fatal(err)
	}
	f := finishing{inner: web.IndexSearcher(ix), started: make(chan struct{}, 2), done: make(chan error, 2)}
	ts := serve(t, web.Options{Store: st, Search: f})
	hostile := ts.URL + "/w/" + ws + "/search?q=" + url.QueryEscape("NEAR("+strings.TrimSpace(strings.Repeat("a* ", 329))+", 1000)")
	ask := func(ctx context.Context) {
		req, _ := http.NewRequestWithContext(ctx, "GET", hostile, nil)
		if resp, err := ts.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}
	patient, stopPatient := context.WithTimeout(context.Background(), 8*time.Second)
	defer stopPatient()
	go ask(patient)
	<-f.started
	gone, leave := context.WithCancel(context.Background())
	go ask(gone)
	<-f.started
	left := time.Now()
	leave()
	err = <-f.done
	took := time.Since(left)
	t.Logf("the first search to end did so %v after its browser left: %v", took, err)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the first search to end returned %v, want the abandoned one with context.Canceled", err)
	}
	if took > time.Second {
		t.Errorf("the abandoned search ended %v after its browser left", took)
	}
	stopPatient()
	<-f.done
}
