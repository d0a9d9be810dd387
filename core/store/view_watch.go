package store

import (
	"context"

	"github.com/agenttool/collab/core/store/sqlite"
)

// ChangeWatcher tells whether any process has committed to the database
// since it last looked; see sqlite.ChangeWatcher.
type ChangeWatcher = sqlite.ChangeWatcher

// Watch returns a ChangeWatcher on its own connection; Close releases it.
func (s *Store) Watch(ctx context.Context) (*ChangeWatcher, error) { return s.db.Watch(ctx) }
