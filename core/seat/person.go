package seat

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
)

// TakePerson binds a seat over st to a person's own session on workspace
// ws, the session whose credential is kept at credPath (see
// place.PersonCredential). The session is resumed, which moves it to a
// new generation and fences any other holder; when credPath does not
// exist yet, a session for actor is started first and its credential
// moved from beside the database to credPath. Every face a person acts
// from (the people's commands, the web view) takes this seat, so the
// person meets the same store rules, generation fencing and journal as
// any agent, as one session.
func TakePerson(ctx context.Context, st *store.Store, credPath string, ws store.Workspace, actor string) (*Seat, error) {
	if _, err := os.Stat(credPath); errors.Is(err, os.ErrNotExist) {
		if err := startPerson(ctx, st, credPath, ws, actor); err != nil {
			return nil, err
		}
	}
	s := New(st, "")
	if err := s.Resume(ctx, credPath, false); err != nil {
		return nil, err
	}
	return s, nil
}

// startPerson begins the person's session and moves its credential into
// credPath. The seat that started it is dropped: the session is then
// resumed from its new place, as every later action does.
func startPerson(ctx context.Context, st *store.Store, credPath string, ws store.Workspace, actor string) error {
	starter := New(st, "")
	started, err := starter.Start(ctx, store.StartSessionInput{RootPath: ws.RootPath, Actor: actor})
	if err != nil {
		return err
	}
	original, err := credfile.PathFor(st.Path(), started.Session.ID)
	if err != nil {
		return err
	}
	cred, err := credfile.Read(original)
	if err != nil {
		return fmt.Errorf("read the new session's credential: %w", err)
	}
	if err := credfile.Write(credPath, cred, false); err != nil {
		return fmt.Errorf("keep the session credential in the state directory: %w", err)
	}
	return credfile.Remove(original)
}

// PersonActor is the actor a person's session starts under: as when
// given, else $COLLAB_PERSON, else person:<login>, else "person".
func PersonActor(as string, env place.Env) string {
	if as != "" {
		return as
	}
	if v := env.Get(place.EnvPerson); v != "" {
		return v
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "person:" + u.Username
	}
	return "person"
}
