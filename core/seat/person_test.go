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
// only at the person's place; every later take resumes that session at
// the next generation, which fences the previous holder.
func TestTakePersonStartsOnceThenResumesTheSameSession(t *testing.T) {
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
	if second.SessionID() != first.SessionID() || now.Generation <= held.Generation {
		t.Fatalf("second take: session %s generation %d, want %s above %d", second.SessionID(), now.Generation, first.SessionID(), held.Generation)
	}
	sess, err := st.Session(ctx, second.SessionID())
	if err != nil || sess.Actor != "pat" {
		t.Fatalf("the session's actor is %q (%v), want the first take's", sess.Actor, err)
	}
	if ok, _ := st.AuthenticSession(ctx, held); ok {
		t.Fatal("the first take's credential still authenticates after the second take")
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
