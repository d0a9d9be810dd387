package seat_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
)

func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: filepath.Join(t.TempDir(), "seat.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func refusedWith(t *testing.T, err error, code collaberr.Code) {
	t.Helper()
	ce, ok := collaberr.As(err)
	if !ok || ce.Code != string(code) {
		t.Fatalf("want refusal %s, got %v", code, err)
	}
}

// TestASeatStartsResumesAndEndsOneSession walks a seat through a session's
// life: start binds and writes the credential file, a second seat resumes
// it at the next generation (fencing the first), a bound seat refuses a
// second binding, and end unbinds and removes the file.
func TestASeatStartsResumesAndEndsOneSession(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	first := seat.New(st, "")
	if _, err := first.Credential(false, "start one"); err == nil {
		t.Fatal("an unbound seat handed out a credential")
	}
	started, err := first.Start(ctx, store.StartSessionInput{RootPath: t.TempDir(), Actor: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	path := first.CredentialFile()
	if _, err := os.Stat(path); err != nil || started.SessionFileName != filepath.Base(path) {
		t.Fatalf("credential file %q (%v), answer names %q", path, err, started.SessionFileName)
	}
	if strings.Contains(started.SessionFileName, string(filepath.Separator)) {
		t.Fatalf("the answer shows a directory: %q", started.SessionFileName)
	}
	_, err = first.Start(ctx, store.StartSessionInput{RootPath: t.TempDir(), Actor: "ana"})
	refusedWith(t, err, collaberr.SessionAlreadyBound)

	second := seat.New(st, "")
	if err := second.Resume(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	cred, err := second.Credential(false, "")
	if err != nil || cred.Generation != started.Session.Generation+1 {
		t.Fatalf("resumed credential %+v, %v", cred, err)
	}
	refusedWith(t, second.Resume(ctx, path, false), collaberr.SessionAlreadyBound)
	refusedWith(t, second.RequireWorkspace("another"), collaberr.SessionWorkspaceMismatch)
	if _, err := second.SessionCaller(started.Workspace.ID, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := first.End(ctx, nil); err == nil {
		t.Fatal("the fenced seat ended the session")
	}
	ended, err := second.End(ctx, nil)
	if err != nil || second.Bound() || ended.Session.ID != started.Session.ID {
		t.Fatalf("end: %+v, %v, still bound %v", ended, err, second.Bound())
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the credential file outlived its session: %v", err)
	}
}

// TestScrubKeepsSecretsOut checks that the token and the credential
// directory never survive the scrub, and that other text does.
func TestScrubKeepsSecretsOut(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := seat.New(st, "")
	if _, err := s.Start(ctx, store.StartSessionInput{RootPath: t.TempDir(), Actor: "ana"}); err != nil {
		t.Fatal(err)
	}
	cred, _ := s.Held()
	dir := filepath.Dir(s.CredentialFile())
	got := s.Scrub("token " + cred.Token + " in " + s.CredentialFile() + " stays out; this stays")
	if strings.Contains(got, cred.Token) || strings.Contains(got, dir) || !strings.Contains(got, "this stays") {
		t.Fatalf("scrubbed text: %q", got)
	}
}

// TestTheTurnHonoursTheCallersContext holds the turn and checks that a
// second taker gives up when its context ends, then gets it once free.
func TestTheTurnHonoursTheCallersContext(t *testing.T) {
	s := seat.New(nil, "")
	if err := s.Take(context.Background()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := s.Take(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a taker whose context ended: %v", err)
	}
	s.Release()
	if err := s.Take(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// TestLabelledPrefixesThePrincipalOnce checks the caller's label.
func TestLabelledPrefixesThePrincipalOnce(t *testing.T) {
	for _, c := range []struct{ principal, actor, want string }{
		{"", "ana", "ana"},
		{"ci", "ana", "ci/ana"},
		{"ci", "ci/ana", "ci/ana"},
	} {
		if got := seat.New(nil, c.principal).Labelled(c.actor); got != c.want {
			t.Errorf("principal %q actor %q: got %q, want %q", c.principal, c.actor, got, c.want)
		}
	}
}

// TestReloadSeesARewrittenCredential checks that a follower notices a
// resume by another holder and ignores a missing file.
func TestReloadSeesARewrittenCredential(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	s := seat.New(st, "")
	if _, err := s.Start(ctx, store.StartSessionInput{RootPath: t.TempDir(), Actor: "ana"}); err != nil {
		t.Fatal(err)
	}
	path := s.CredentialFile()
	held, _ := s.Held()
	if _, changed := seat.Reload(path, held); changed {
		t.Fatal("an unchanged file was reported changed")
	}
	if err := seat.New(st, "").Resume(ctx, path, false); err != nil {
		t.Fatal(err)
	}
	now, changed := seat.Reload(path, held)
	if !changed || now.Generation != held.Generation+1 {
		t.Fatalf("after a resume: %+v changed %v", now, changed)
	}
	if got, changed := seat.Reload(filepath.Join(t.TempDir(), "gone"), held); changed || got != held {
		t.Fatal("a missing file counted as a change")
	}
}

// TestHoldBindsWithoutResuming: holding a credential file binds its
// session at the generation it records and moves nothing; once another
// holder has resumed from a copy, the stale file is reported as not
// current (and nothing is bound), and a file of an ended session is
// refused.
func TestHoldBindsWithoutResuming(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	first := seat.New(st, "")
	started, err := first.Start(ctx, store.StartSessionInput{RootPath: t.TempDir(), Actor: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	path := first.CredentialFile()
	held := seat.New(st, "")
	if current, err := held.Hold(ctx, path); err != nil || !current || !held.Bound() {
		t.Fatalf("hold: current %v, bound %v, %v", current, held.Bound(), err)
	}
	if sess, _ := st.Session(ctx, started.Session.ID); sess.Generation != started.Session.Generation {
		t.Fatalf("holding moved the generation to %d", sess.Generation)
	}
	if _, err := held.SessionCaller(started.Workspace.ID, ""); err != nil {
		t.Fatal(err)
	}
	private := filepath.Join(t.TempDir(), "copies")
	os.Mkdir(private, 0o700)
	copied := filepath.Join(private, "copy.json")
	raw, _ := os.ReadFile(path)
	os.WriteFile(copied, raw, 0o600)
	if err := seat.New(st, "").Resume(ctx, copied, false); err != nil {
		t.Fatal(err)
	}
	stale := seat.New(st, "")
	if current, err := stale.Hold(ctx, path); err != nil || current || stale.Bound() {
		t.Fatalf("a stale file: current %v, bound %v, %v", current, stale.Bound(), err)
	}
	again := seat.New(st, "")
	if err := again.Resume(ctx, copied, false); err != nil {
		t.Fatal(err)
	}
	if _, err := again.End(ctx, nil); err != nil {
		t.Fatal(err)
	}
	_, err = seat.New(st, "").Hold(ctx, path)
	refusedWith(t, err, collaberr.SessionAuthFailed)
}
