//go:build !collab_nodirect

package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"math"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// This file is the entry to the direct read connections (direct.go,
// directscan.go): a speed trick that bypasses the driver to call the SQLite
// library that modernc.org/sqlite transpiles. Building with the tag
// collab_nodirect leaves all three out (direct_off.go stands in), and long
// journals are then verified in one pass of driver rows (rawscan.go), with
// the same verdicts. Its gain and how to measure it: docs/performance.md.

// splitFrom is the journal length from which Ranges offers two halves
// at once: below it, a second connection and snapshot cost more than they
// save.
const splitFrom = 4096

// Ranges offers h's journal, when it is long, the file current and
// direct connections at hand, as two ranges to be read at the same time,
// each on a direct connection of its own (directConn: no mutex per row
// and column, and text viewed where SQLite holds it rather than copied),
// so that reading rows, most of the cost, runs on two cores;
// journal.VerifyChain computes the verdict over them. h comes from c's
// snapshot; the halves are read in snapshots begun later. Events are only
// ever appended, so every event up to h is the same in all of them. The
// ranges are offered only where they reach the verdict one pass does:
//
//   - the journal's last sequence in c's snapshot must be h's, as a single
//     pass ending exactly at h requires;
//   - the event at the cut must exist, and its stored hash is where the
//     first range must end and the second begin (journal.VerifyRanges);
//   - the first range starts below every sequence, so that a row before
//     sequence 1 breaks it as it breaks a single pass.
//
// Otherwise (a short or damaged journal, an older file) there are none,
// and the journal is read in one pass.
func (c *chains) Ranges(ctx context.Context, h store.JournalHead) ([]journal.Range, error) {
	if h.Sequence < splitFrom || c.directURI == "" {
		return nil, nil
	}
	if col, err := c.sessionColumn(ctx); err != nil || col != "session_id" {
		// An older file, or one whose columns cannot be read: the one
		// pass reads it, and says what is wrong.
		return nil, nil
	}
	var last sql.NullInt64
	if err := c.q.QueryRowContext(ctx, "SELECT max(sequence) FROM events WHERE workspace_id = ?", h.WorkspaceID).Scan(&last); err != nil {
		return nil, fmt.Errorf("read journal length: %w", err)
	}
	if !last.Valid || last.Int64 != h.Sequence {
		return nil, nil
	}
	mid := h.Sequence / 2
	var cut sql.NullString
	err := c.q.QueryRowContext(ctx, "SELECT hash FROM events WHERE workspace_id = ? AND sequence = ?", h.WorkspaceID, mid).Scan(&cut)
	if err == sql.ErrNoRows || (err == nil && !cut.Valid) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the event at the cut: %w", err)
	}
	stream := func(sp span) journal.Feed {
		return func(emit func(e *journal.Event) error) error {
			dc, err := openDirect(c.directURI)
			if err != nil {
				return err
			}
			defer dc.Close()
			return streamDirect(ctx, dc, h, sp, emit)
		}
	}
	return []journal.Range{
		{FromSequence: 0, FromHash: journal.GenesisHash, ToSequence: mid, ToHash: cut.String,
			Feed: stream(span{after: math.MinInt64, upTo: mid}), Borrowed: true},
		{FromSequence: mid, FromHash: cut.String, ToSequence: h.Sequence, ToHash: h.Hash,
			Feed: stream(span{after: mid, upTo: h.Sequence}), Borrowed: true},
	}, nil
}
