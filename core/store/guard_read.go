package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/collaberr"
)

// Reservation is a task that holds its path scopes against the work of
// everyone else in its repository: a claim whose lease is live (or a
// session claim not yet recovered), or a completion waiting for review.
// These are exactly the tasks conflict projection counts.
type Reservation struct {
	TaskID            string
	WorkspaceID       string
	Title             string
	Review            bool // a completion waiting for review, not a claim
	Assignee          *string
	AssigneeSessionID *string
	LeaseExpiresAt    *string
	PathScopes        []string
}

// RepositoryReservations reads, in one snapshot, every reservation of the
// repository that the worktree at rootPath (a canonical path, as workspaces
// record it) belongs to, across all of its linked worktrees. found is false
// when no workspace or worktree is registered at rootPath; the store is
// never written.
func (s *Store) RepositoryReservations(ctx context.Context, rootPath string) (res []Reservation, found bool, err error) {
	err = s.readTx(ctx, func(tx *Tx) error {
		key, ok, err := repositoryKeyAt(ctx, tx, rootPath)
		if err != nil || !ok {
			return err
		}
		found = true
		res, err = readReservations(ctx, tx, key, s.nowISO())
		return err
	})
	return res, found, err
}

// repositoryKeyAt finds the repository of the worktree or workspace
// registered at rootPath.
func repositoryKeyAt(ctx context.Context, q querier, rootPath string) (string, bool, error) {
	var key string
	err := q.QueryRowContext(ctx, `SELECT repository_key FROM worktrees WHERE root_path = ?
UNION ALL SELECT repository_key FROM workspaces WHERE root_path = ? LIMIT 1`, rootPath, rootPath).Scan(&key)
	if err == sql.ErrNoRows {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("find the repository of %s: %w", rootPath, err)
	}
	return key, true, nil
}

func readReservations(ctx context.Context, q querier, repositoryKey, now string) ([]Reservation, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.id, t.workspace_id, t.title, t.status = 'completed', t.assignee,
t.assignee_session_id, t.lease_expires_at, t.path_scopes_json FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
WHERE w.repository_key = ? AND t.work_mode != 'read_only' AND t.path_scopes_json != '[]' AND (
  (t.status = 'claimed' AND (t.lease_expires_at > ? OR t.assignee_session_id IS NOT NULL))
  OR (t.status = 'completed' AND t.completion_policy = 'accepted' AND t.review_status = 'pending'))
ORDER BY w.rowid, t.rowid`, repositoryKey, now)
	if err != nil {
		return nil, fmt.Errorf("read reservations: %w", err)
	}
	defer rows.Close()
	var out []Reservation
	for rows.Next() {
		var r Reservation
		var scopes string
		if err := rows.Scan(&r.TaskID, &r.WorkspaceID, &r.Title, &r.Review, &r.Assignee, &r.AssigneeSessionID,
			&r.LeaseExpiresAt, &scopes); err != nil {
			return nil, fmt.Errorf("read reservations: %w", err)
		}
		if err := json.Unmarshal([]byte(scopes), &r.PathScopes); err != nil {
			return nil, fmt.Errorf("task %s path scopes: %w", r.TaskID, err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// AuthenticSession reports whether cred names an active session whose
// token and generation match, without writing anything (a session waiting
// for a cursor reset still counts). A credential that does not authenticate
// is false, not an error.
func (s *Store) AuthenticSession(ctx context.Context, cred Credential) (bool, error) {
	var ok bool
	err := s.readTx(ctx, func(tx *Tx) error {
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
