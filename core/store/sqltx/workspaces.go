package sqltx

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// WorkspaceColumns is the column list of a workspace row, in Workspace order.
const WorkspaceColumns = "id, epoch_id, root_path, repository_key, name, created_at, event_head_sequence, event_head_hash"

// scanWorkspace reads one row selected with WorkspaceColumns.
func scanWorkspace(row interface{ Scan(...any) error }) (store.Workspace, error) {
	var w store.Workspace
	err := row.Scan(&w.ID, &w.EpochID, &w.RootPath, &w.RepositoryKey, &w.Name, &w.CreatedAt, &w.EventHeadSequence, &w.EventHeadHash)
	return w, err
}

// FindWorkspace reads one workspace.
func FindWorkspace(ctx context.Context, q Runner, id string) (store.Workspace, bool, error) {
	w, err := scanWorkspace(q.QueryRowContext(ctx, "SELECT "+WorkspaceColumns+" FROM workspaces WHERE id = ?", id))
	if err == sql.ErrNoRows {
		return w, false, nil
	}
	if err != nil {
		return w, false, fmt.Errorf("read workspace: %w", err)
	}
	return w, true, nil
}

// Workspace reads one workspace.
func (t *Tx) Workspace(ctx context.Context, id string) (store.Workspace, bool, error) {
	return FindWorkspace(ctx, t, id)
}

// Workspaces lists the workspaces f selects in (created_at, id) order: all
// of them, or through the repository index, or the one rooted at a path
// through the unique root_path index.
func (t *Tx) Workspaces(ctx context.Context, f store.WorkspaceFilter) ([]store.Workspace, error) {
	var where []string
	var args []any
	if f.RepositoryKey != "" {
		where, args = append(where, "repository_key = ?"), append(args, f.RepositoryKey)
	}
	if f.RootPath != "" {
		where, args = append(where, "root_path = ?"), append(args, f.RootPath)
	}
	query := "SELECT " + WorkspaceColumns + " FROM workspaces"
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	rows, err := t.QueryContext(ctx, query+" ORDER BY created_at, id", args...)
	if err != nil {
		return nil, fmt.Errorf("list workspaces: %w", err)
	}
	defer rows.Close()
	out := []store.Workspace{}
	for rows.Next() {
		w, err := scanWorkspace(rows)
		if err != nil {
			return nil, fmt.Errorf("list workspaces: %w", err)
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// CreateWorkspace stores a new workspace with an empty journal.
func (t *Tx) CreateWorkspace(ctx context.Context, w store.NewWorkspace) error {
	if err := t.insertRepository(ctx, w.RepositoryKey, w.CreatedAt); err != nil {
		return err
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO workspaces (id, epoch_id, root_path, name, created_at, event_head_sequence,
event_head_hash, repository_key) VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
		w.ID, w.EpochID, w.RootPath, w.Name, w.CreatedAt, journal.GenesisHash, w.RepositoryKey); err != nil {
		return fmt.Errorf("insert workspace: %w", err)
	}
	return nil
}

// insertRepository registers a repository unless it is known already.
func (t *Tx) insertRepository(ctx context.Context, key, now string) error {
	if _, err := t.ExecContext(ctx, t.d.insertRepository, key, now); err != nil {
		return fmt.Errorf("insert repository: %w", err)
	}
	return nil
}
