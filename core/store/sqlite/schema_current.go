package sqlite

import (
	"context"
	"fmt"
)

// NeedsMigration reports whether the file's schema predates SchemaVersion,
// so that a read-only opener (which never migrates) can say so instead of
// failing on a missing column. A writable Open has already migrated.
func (s *DB) NeedsMigration(ctx context.Context) (bool, error) {
	var v int64
	if err := s.read.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return false, fmt.Errorf("read schema version: %w", err)
	}
	return v < SchemaVersion, nil
}

// UserVersion returns the file's user_version as it is now.
func (s *DB) UserVersion(ctx context.Context) (int64, error) {
	return PragmaInt(ctx, s.read, "user_version")
}
