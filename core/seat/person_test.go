package seat_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
)

// A person's first take starts their session and keeps its credential
// only at the person's place; a later take holds that session at the
// generation its file records (no resume, so nothing journaled), and only
// a take after another holder resumed it from a copy resumes it again,
// fencing that holder.
func TestTakePersonStartsOnceThenHoldsTheSameSession(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "setup"})
	if err != nil {
		t.Fatal(err)
	}
	credPath := filepath.Join(t.TempDir(), "person", "cred.json")
	first, err := seat.TakePerson(ctx, st, credPath, opened.Workspace, "pat")
	if err != nil {
		t.Fatal(err)
	}
	beside, err := credfile.PathFor(st.Path(), first.SessionID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(beside); !os.IsNotExist(err) {
		t.Fatalf("the credential was left beside the database (%v)", err)
	}
	held, _ := first.Held()
	second, err := seat.TakePerson(ctx, st, credPath, opened.Workspace, "someone else")
	if err != nil {
		t.Fatal(err)
	}
	now, _ := second.Held()
	if second.SessionID() != first.SessionID() || now.Generation != held.Generation {
		t.Fatalf("second take: session %s generation %d, want %s held at %d", second.SessionID(), now.Generation, first.SessionID(), held.Generation)
	}
	sess, err := st.Session(ctx, second.SessionID())
	if err != nil || sess.Actor != "pat" {
		t.Fatalf("the session's actor is %q (%v), want the first take's", sess.Actor, err)
	}

	// Another holder resumes the session from a copy of the file.
	cred, err := credfile.Read(credPath)
	if err != nil {
		t.Fatal(err)
	}
	copyDir := filepath.Join(t.TempDir(), "copy")
	if err := os.Mkdir(copyDir, 0o700); err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(copyDir, "copy.json")
	if err := credfile.Write(copyPath, cred, false); err != nil {
		t.Fatal(err)
	}
	other := seat.New(st, "")
	if err := other.Resume(ctx, copyPath, false); err != nil {
		t.Fatal(err)
	}
	taken, _ := other.Held()
	third, err := seat.TakePerson(ctx, st, credPath, opened.Workspace, "pat")
	if err != nil {
		t.Fatal(err)
	}
	back, _ := third.Held()
	if back.Generation <= taken.Generation {
		t.Fatalf("third take: generation %d, want above the other holder's %d", back.Generation, taken.Generation)
	}
	if ok, _ := st.AuthenticSession(ctx, taken); ok {
		t.Fatal("the other holder's credential still authenticates after the person took the session back")
	}
}

func TestPersonActorPrefersAsThenTheVariable(t *testing.T) {
	env := place.Map("linux", map[string]string{place.EnvPerson: "robin"}, "/")
	for _, c := range []struct{ as, want string }{{"pat", "pat"}, {"", "robin"}} {
		if got := seat.PersonActor(c.as, env); got != c.want {
			t.Errorf("PersonActor(%q) = %q, want %q", c.as, got, c.want)
		}
	}
	if got := seat.PersonActor("", place.Map("linux", nil, "/")); got == "" {
		t.Error("without --as or the variable the actor is empty")
	}
}
