package sqltx

import (
	"context"
	"fmt"
)

// RepositoryWorkspaces lists the ids of a repository's workspaces, by
// (created_at, id).
func (t *Tx) RepositoryWorkspaces(ctx context.Context, repositoryKey string) ([]string, error) {
	rows, err := t.QueryContext(ctx, "SELECT id FROM workspaces WHERE repository_key = ? ORDER BY created_at, id", repositoryKey)
	if err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	defer rows.Close()
	ids := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read workspace id: %w", err)
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}
