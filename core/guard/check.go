package guard

import (
	"context"
	"fmt"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// CheckInput is one hook run.
type CheckInput struct {
	Hook string // PreCommit or PrePush
	Dir  string // a folder of the worktree
	// Root is the worktree's canonical top level when the caller knows it
	// (Git runs hooks there), saving a Git process; else it is asked of Git.
	Root      string
	Remote    string // pre-push: the remote's name
	PushInput []byte // pre-push: the hook's stdin
	Database  string // the collab database to read
	// Own is the credential of the committing session, if the environment
	// names one; its reservations never conflict. One that does not
	// authenticate is ignored.
	Own *store.Credential
}

// Verdict is what a check found.
type Verdict struct {
	Root      string     `json:"root"`
	Paths     int        `json:"paths"`     // changed paths looked at (both ends of a rename)
	Workspace bool       `json:"workspace"` // whether collab knows this worktree at all
	Conflicts []Conflict `json:"conflicts"`
}

// Check lists the changes of the commit or push being made and maps them
// onto the reservations of the repository's workspaces. The database is
// opened read-only and never migrated; nothing is written.
func Check(ctx context.Context, in CheckInput) (Verdict, error) {
	var v Verdict
	root, err := in.Root, error(nil)
	if root == "" {
		if root, err = Toplevel(ctx, in.Dir); err != nil {
			return v, err
		}
	}
	v.Root = root
	var changes []Change
	switch in.Hook {
	case PreCommit:
		changes, err = Staged(ctx, root)
	case PrePush:
		changes, err = Pushed(ctx, root, in.Remote, in.PushInput)
	default:
		return v, fmt.Errorf("unknown hook %q", in.Hook)
	}
	if err != nil {
		return v, err
	}
	for _, c := range changes {
		v.Paths += len(c.Paths())
	}
	if len(changes) == 0 {
		return v, nil
	}
	opts := backend.Options{Path: in.Database, ReadOnly: true}
	if deadline, ok := ctx.Deadline(); ok {
		// A locked file must not hold the hook past its budget: SQLite's
		// lock wait is not interrupted by the context, so bound it too.
		opts.LockWait = max(time.Until(deadline), time.Millisecond)
	}
	st, err := backend.Open(ctx, opts)
	if err != nil {
		return v, fmt.Errorf("open the collab database: %w", err)
	}
	defer st.Close()
	reservations, found, err := st.RepositoryReservations(ctx, root)
	if err != nil || !found {
		return v, err
	}
	v.Workspace = true
	own := ""
	if in.Own != nil {
		ok, err := st.AuthenticSession(ctx, *in.Own)
		if err != nil {
			return v, err
		}
		if ok {
			own = in.Own.SessionID
		}
	}
	v.Conflicts = Find(changes, reservations, own)
	return v, nil
}
