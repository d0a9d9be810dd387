package sqlite

import (
	"context"
	"fmt"
)

// A partialIndex is an index a file gains once one of the reference's
// tables holds many rows of which a read wants only a few: the rows the
// index's WHERE names. It is a partial index on the reference's own
// table, so SQLite keeps it current for every writer, the reference
// included, and the reference opens a file holding it. Below the
// threshold, visiting every row costs less than a millisecond, and a file
// the reference made keeps exactly its schema.
type partialIndex struct {
	name string
	// ddl creates the index (CREATE INDEX IF NOT EXISTS).
	ddl string
	// rows is a SELECT of one row per row counted toward the threshold;
	// the check reads at most after of them.
	rows string
	// after is how many rows make the file gain the index.
	after int
}

// longTableIndexes are the partial indexes an open adds once their
// tables are long.
var longTableIndexes = []partialIndex{reviewPending, pendingOffers}

// indexLongTables gives the file every partial index its tables have
// grown to need. Like the records written after an open, it is best
// effort: a file it cannot index now (another process holds the write
// lock past the wait) opens all the same, and reads are right either way.
func (s *DB) indexLongTables(ctx context.Context) {
	for _, ix := range longTableIndexes {
		_ = s.ensureIndex(ctx, ix, ix.after) //nolint:errcheck // best effort, see above
	}
}

// ensureIndex creates ix unless the file has it or holds fewer than
// after of its rows.
func (s *DB) ensureIndex(ctx context.Context, ix partialIndex, after int) error {
	var has int
	if err := s.write.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?",
		ix.name).Scan(&has); err != nil || has > 0 {
		return err
	}
	var n int
	if err := s.write.QueryRowContext(ctx, "SELECT count(*) FROM ("+ix.rows+" LIMIT ?)", after).Scan(&n); err != nil || n < after {
		return err
	}
	if _, err := s.write.ExecContext(ctx, ix.ddl); err != nil {
		return fmt.Errorf("create index %s: %w", ix.name, err)
	}
	return nil
}
