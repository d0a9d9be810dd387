package sqlite

import (
	"context"
	"fmt"
	"strings"
)

// A longFileIndex is an index a file gains once one of the reference's
// tables has grown long enough for a read to need it. SQLite keeps it
// current for every writer, the reference included, and the reference
// opens a file holding it. Below the threshold, reading without it costs
// about a millisecond, and a file the reference made keeps exactly its
// schema.
type longFileIndex struct {
	name string
	// ddl creates the index (CREATE INDEX IF NOT EXISTS).
	ddl string
	// rows is a SELECT of one row per row counted toward the threshold;
	// the check reads at most after of them.
	rows string
	// after is how many rows make the file gain the index.
	after int
}

// longFileIndexes are the indexes an open adds once their tables are
// long: the events type index, and the partial indexes of pending reviews
// and pending offers.
var longFileIndexes = []longFileIndex{eventTypes, reviewPending, pendingOffers}

// indexLongFile gives the file every index in longFileIndexes its tables
// have grown to need. Like the records written after an open, it is best
// effort: a file it cannot index now (another process holds the write
// lock past the wait) opens all the same, and reads are right either way.
func (s *DB) indexLongFile(ctx context.Context) {
	_ = s.ensureIndexes(ctx, longFileIndexes) //nolint:errcheck // best effort, see above
}

// ensureIndexes creates each index of list that the file lacks once its
// table holds the index's threshold of rows. The indexes the file has are
// read in one query, so an open of a file that has them all costs one
// statement.
func (s *DB) ensureIndexes(ctx context.Context, list []longFileIndex) error {
	has, err := s.indexesPresent(ctx, list)
	if err != nil {
		return err
	}
	for _, ix := range list {
		if has[ix.name] {
			continue
		}
		var n int
		if err := s.write.QueryRowContext(ctx, "SELECT count(*) FROM ("+ix.rows+" LIMIT ?)", ix.after).Scan(&n); err != nil {
			return fmt.Errorf("count the rows of index %s: %w", ix.name, err)
		}
		if n < ix.after {
			continue
		}
		if _, err := s.write.ExecContext(ctx, ix.ddl); err != nil {
			return fmt.Errorf("create index %s: %w", ix.name, err)
		}
	}
	return nil
}

// indexesPresent is the set of list's indexes the file holds.
func (s *DB) indexesPresent(ctx context.Context, list []longFileIndex) (map[string]bool, error) {
	args := make([]any, len(list))
	for i, ix := range list {
		args[i] = ix.name
	}
	rows, err := s.write.QueryContext(ctx, "SELECT name FROM sqlite_master WHERE type = 'index' AND name IN (?"+
		strings.Repeat(", ?", len(list)-1)+")", args...)
	if err != nil {
		return nil, fmt.Errorf("read the file's indexes: %w", err)
	}
	defer rows.Close()
	has := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("read the file's indexes: %w", err)
		}
		has[name] = true
	}
	return has, rows.Err()
}
