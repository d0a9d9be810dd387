package web_test

import (
	"bufio"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/web"
)

func TestLiveStreamSaysChangeAfterAnotherConnectionCommits(t *testing.T) {
	path := emptyDatabase(t)
	ts := serve(t, web.Options{Store: readOnly(t, path), Poll: 20 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/live", nil)
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() && lines.Text() != ": listening" {
	}
	writer, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if _, err := writer.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "w"}); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "event: change") {
			return
		}
	}
	t.Fatalf("the stream ended without a change: %v", lines.Err())
}
