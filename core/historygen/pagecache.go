package historygen

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// buildCacheKiB is the page cache of the generator's write connection.
// SQLite's default (2 MiB) holds a small part of the indexes a journal of
// a million events keeps growing (events, receipts and reports are keyed
// by random ids, so every insert lands on a different page); a miss costs
// a read of the file. The setting belongs to the connection, not to the
// file: the bytes written are the same, and a server opening the file
// later has its own cache.
const buildCacheKiB = 256 << 10

// execer is the statement runner of an SQLite transaction.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// widenPageCache gives the connection tx runs on a larger page cache; an
// engine that is not SQLite is left as it is.
func widenPageCache(ctx context.Context, tx store.Tx) error {
	ex, ok := tx.(execer)
	if !ok {
		return nil
	}
	if _, err := ex.ExecContext(ctx, fmt.Sprintf("PRAGMA cache_size = -%d", buildCacheKiB)); err != nil {
		return fmt.Errorf("widen the page cache: %w", err)
	}
	return nil
}
