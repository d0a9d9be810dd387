//go:build unix

package main

import (
	"context"
	"fmt"
	"math/rand"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// hostileQuery is the query of issue 36 that held a core for 51 s: 1,000
// characters of NEAR over one-letter prefix terms.
var hostileQuery = "NEAR(" + strings.TrimSpace(strings.Repeat("a* ", 329)) + ", 1000)"

// wordyJournal writes 200 tasks of 300 random words each into the
// sandbox's database, the shape on which hostileQuery is slow, and
// returns the workspace id.
func wordyJournal(t *testing.T, s *sandbox) string {
	t.Helper()
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		t.Fatal(err)
	}
	st, err := backend.Open(ctx, backend.Options{Path: s.db})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "wordy"})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewSource(36))
	for i := 0; i < 200; i++ {
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
	return opened.Workspace.ID
}

// exitsWithin sends SIGTERM to cmd and reports how long it took to exit,
// killing it when it has not after limit.
func exitsWithin(t *testing.T, cmd *exec.Cmd, exited <-chan struct{}, limit time.Duration) time.Duration {
	t.Helper()
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil && err != os.ErrProcessDone {
		t.Fatal(err)
	}
	select {
	case <-exited:
		return time.Since(start)
	case <-time.After(limit):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("still running %v after SIGTERM", limit)
		return 0
	}
}

// TestSearchAndWebStopPromptlyOnSIGTERMDuringAHostileQuery starts the
// issue's hostile query in a real `search` process and through a real
// `web` process's search box, then sends SIGTERM: each process must be
// gone within two seconds.
func TestSearchAndWebStopPromptlyOnSIGTERMDuringAHostileQuery(t *testing.T) {
	s := newSandbox(t)
	ws := wordyJournal(t, s)
	if out, code := s.searchCLI("wordy"); code != 0 {
		t.Fatalf("indexing search exited %d: %s", code, out)
	}
	const limit = 10 * time.Second
	t.Run("search", func(t *testing.T) {
		cmd := exec.Command(os.Args[0], "search", "--db", s.db, hostileQuery)
		cmd.Env = s.env()
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		// The process needs a moment to reach the query; whether it is
		// matching, refusing or already done when the signal lands, it
		// must be gone soon after.
		time.Sleep(300 * time.Millisecond)
		took := exitsWithin(t, cmd, exited, limit)
		t.Logf("search exited %v after SIGTERM: %s", took, strings.TrimSpace(out.String()))
		if took > 2*time.Second {
			t.Errorf("search exited %v after SIGTERM, want under 2 s", took)
		}
	})
	t.Run("web", func(t *testing.T) {
		srv := startWeb(t, s, s.db)
		exited := make(chan struct{})
		go func() { srv.cmd.Wait(); close(exited) }()
		answered := make(chan string, 1)
		go func() {
			resp, err := http.Get(srv.url + "/w/" + ws + "/search?q=" + url.QueryEscape(hostileQuery))
			if err != nil {
				answered <- err.Error()
				return
			}
			resp.Body.Close()
			answered <- resp.Status
		}()
		time.Sleep(300 * time.Millisecond)
		took := exitsWithin(t, srv.cmd, exited, limit)
		t.Logf("web exited %v after SIGTERM; the hostile search got %s", took, <-answered)
		if took > 2*time.Second {
			t.Errorf("web exited %v after SIGTERM, want under 2 s", took)
		}
	})
}
