package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqlite"
)

// verifyChunk is how many events VerifyWithProgress reads between reports.
const verifyChunk = 2000

// VerifyWithProgress recomputes one workspace's chain from genesis, like
// VerifyJournal, inside one read snapshot, calling progress after each
// chunk of events with how many have been checked and the head sequence.
// It stops at the first event that breaks the chain and reports false.
func (s *Store) VerifyWithProgress(ctx context.Context, workspaceID string, progress func(done, total int64)) (bool, error) {
	return s.atHead(ctx, workspaceID, func(conn *sql.Conn, h engine.Head) (bool, error) {
		return verifyInChunks(ctx, conn, h, progress)
	})
}

// verifyInChunks recomputes h's chain a chunk at a time, reporting after each.
func verifyInChunks(ctx context.Context, conn *sql.Conn, h engine.Head, progress func(done, total int64)) (bool, error) {
	workspaceID := h.WorkspaceID
	v := journal.NewVerifier(0, journal.GenesisHash)
	for after := int64(0); ; {
		n, ok, err := verifyNextChunk(ctx, conn, v, workspaceID, after)
		if err != nil || !ok {
			return false, err
		}
		if n == 0 {
			break
		}
		after += n
		if progress != nil {
			progress(after, h.Sequence)
		}
	}
	seq, hash := v.Last()
	return seq == h.Sequence && hash == h.Hash, nil
}

// verifyNextChunk feeds the events after sequence after to v and returns
// how many it read; ok is false once the chain breaks.
func verifyNextChunk(ctx context.Context, conn *sql.Conn, v *journal.Verifier, workspaceID string, after int64) (int64, bool, error) {
	rows, err := conn.QueryContext(ctx, "SELECT "+sqlite.EventColumns+
		" FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY sequence LIMIT ?", workspaceID, after, verifyChunk)
	if err != nil {
		return 0, false, fmt.Errorf("read journal: %w", err)
	}
	defer rows.Close()
	var n int64
	var e journal.Event
	for rows.Next() {
		if err := sqlite.ScanEvent(rows, &e); err != nil {
			return n, false, err
		}
		if !v.Next(&e) {
			return n, false, nil
		}
		n++
	}
	return n, true, rows.Err()
}
