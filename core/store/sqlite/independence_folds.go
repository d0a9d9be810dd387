package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// IndependenceFoldsTable records, per workspace, a fold of its
// independence claims and the journal position it was read through
// (store.IndependenceRecords; core/store/independence_record.go says
// when it is trusted and written). The reference ignores it. It describes
// this file only (layout.SQLiteRecord): a copy leaves it behind, so a
// copied journal folds its claims from genesis in its first process.
const IndependenceFoldsTable = "independence_folds"

// IndependenceFoldsDDL creates the record table; it is created by the
// first append that records a fold, so a journal that never held
// store's threshold of claim events keeps the reference's tables.
var IndependenceFoldsDDL = []string{`CREATE TABLE IF NOT EXISTS independence_folds (
  workspace_id TEXT NOT NULL PRIMARY KEY,
  epoch_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  hash TEXT NOT NULL,
  fold_json TEXT NOT NULL,
  settled_json TEXT NOT NULL
)`}

const recordIndependenceFold = `INSERT INTO independence_folds (workspace_id, epoch_id, sequence, hash, fold_json, settled_json)
VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (workspace_id) DO UPDATE SET epoch_id = excluded.epoch_id,
sequence = excluded.sequence, hash = excluded.hash, fold_json = excluded.fold_json, settled_json = excluded.settled_json`

// RecordedIndependence reads the workspace's recorded fold
// (store.IndependenceRecords); none when the file has no record table or
// the row does not read.
func (t *Tx) RecordedIndependence(ctx context.Context, workspaceID string) (store.IndependenceRecord, bool, error) {
	if has, err := tableExists(ctx, t, IndependenceFoldsTable); err != nil || !has {
		return store.IndependenceRecord{}, false, err
	}
	r := store.IndependenceRecord{WorkspaceID: workspaceID}
	var fold, settled string
	err := t.QueryRowContext(ctx, "SELECT epoch_id, sequence, hash, fold_json, settled_json FROM independence_folds WHERE workspace_id = ?",
		workspaceID).Scan(&r.At.EpochID, &r.At.Sequence, &r.At.Hash, &fold, &settled)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return store.IndependenceRecord{}, false, nil
	case ctx.Err() != nil:
		return store.IndependenceRecord{}, false, ctx.Err()
	case err != nil:
		// A row that does not scan (a value of another type) is no
		// record: the fold is built from genesis.
		return store.IndependenceRecord{}, false, nil
	}
	r.Fold, r.Settled = []byte(fold), []byte(settled)
	return r, true, nil
}

// RecordIndependence replaces the workspace's recorded fold inside the
// write transaction, creating the record table on first use.
func (t *Tx) RecordIndependence(ctx context.Context, r store.IndependenceRecord) error {
	for _, ddl := range IndependenceFoldsDDL {
		if _, err := t.tx.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("create the independence fold table: %w", err)
		}
	}
	if _, err := t.ExecContext(ctx, recordIndependenceFold, r.WorkspaceID, r.At.EpochID, r.At.Sequence, r.At.Hash,
		string(r.Fold), string(r.Settled)); err != nil {
		return fmt.Errorf("record the independence fold of %s: %w", r.WorkspaceID, err)
	}
	return nil
}

// the SQLite transaction keeps recorded folds.
var _ store.IndependenceRecords = (*Tx)(nil)
