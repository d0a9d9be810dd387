package store

import "context"

// Partitions tell whether a repository's journal is kept in pieces: a
// migration from v0.1 preserves each legacy journal of a repository as a
// workspace of its own, and credential-bound sessions need exactly one.
type Partitions interface {
	// RepositoryWorkspaces lists the ids of every workspace of a
	// repository, by (created_at, id); never nil.
	RepositoryWorkspaces(ctx context.Context, repositoryKey string) ([]string, error)
}
