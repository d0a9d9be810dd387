package store

import (
	"context"

	"github.com/agenttool/collab/core/collaberr"
)

// RepositoryReservations reads, in one snapshot, every reservation of the
// repository that the worktree at rootPath (a canonical path, as workspaces
// record it) belongs to, across all of its linked worktrees. found is false
// when no workspace or worktree is registered at rootPath; the store is
// never written.
func (s *Store) RepositoryReservations(ctx context.Context, rootPath string) (res []Reservation, found bool, err error) {
	err = s.engine().Read(ctx, func(tx Tx) error {
		key, ok, err := repositoryAt(ctx, tx, rootPath)
		if err != nil || !ok {
			return err
		}
		found = true
		res, err = repositoryReservations(ctx, tx, key, s.nowISO())
		return err
	})
	return res, found, err
}

// AuthenticSession reports whether cred names an active session whose
// token and generation match, without writing anything (a session waiting
// for a cursor reset still counts). A credential that does not authenticate
// is false, not an error.
func (s *Store) AuthenticSession(ctx context.Context, cred Credential) (bool, error) {
	var ok bool
	err := s.engine().Read(ctx, func(tx Tx) error {
		_, err := authenticate(ctx, tx, cred, true)
		if err == nil {
			ok = true
			return nil
		}
		if _, refused := collaberr.As(err); refused {
			return nil
		}
		return err
	})
	return ok, err
}
