package sqlite

import (
	"context"
	"fmt"
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
// have grown to need, and the task counts (task_counts.go) once it holds
// many completed tasks. Which of them the file has is read in one
// sqlite_master query. Like the records written after an open, it is
// best effort: a file it cannot index now (another process holds the
// write lock past the wait) opens all the same, and reads are right
// either way (without trusted counts, CountTasks counts the rows).
func (s *DB) indexLongFile(ctx context.Context) {
	objects, err := schemaObjects(ctx, s.write, append(indexNames(longFileIndexes), taskCountsNames()...))
	if err != nil {
		return
	}
	_ = s.ensureIndexesAmong(ctx, longFileIndexes, objects) //nolint:errcheck // best effort, see above
	_ = s.ensureTaskCounts(ctx, objects, taskCountsAfter)   //nolint:errcheck // best effort, see above
}

// ensureIndexesAmong creates each index of list that the file lacks once
// its table holds the index's threshold of rows, given the file's schema
// objects (schemaObjects), so an open of a file that has every index
// costs one statement.
func (s *DB) ensureIndexesAmong(ctx context.Context, list []longFileIndex, objects map[string]string) error {
	for _, ix := range list {
		if _, has := objects[ix.name]; has {
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

// indexNames are the names of list's indexes.
func indexNames(list []longFileIndex) []string {
	out := make([]string, len(list))
	for i, ix := range list {
		out[i] = ix.name
	}
	return out
}
