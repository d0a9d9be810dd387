package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Opening a file refuses it when a journal fails verification. Instead of
// recomputing every journal from genesis on every open, the file records,
// per workspace, the head the last open verified (journal_verified_heads,
// a table the reference ignores). The next open re-checks that recorded
// event (its stored columns hash to its stored hash, and that hash is the
// one recorded), verifies the chain from it to the head, and advances the
// record. Without a record, with a record of another epoch or beyond the
// head, or with a recorded event that does not re-check, the open
// verifies the journal from genesis as before; a recorded event that
// hashes correctly but to another hash than the one recorded means the
// journal was re-chained, and is refused. What this leaves to the full
// audit (verify, collab_journal_verify) is an event before the recorded
// head edited in place without its successors being re-chained.

// VerifiedHeadsTable records the journal head each workspace's last open
// verified. It describes this file only (layout.SQLiteRecord): a copy
// leaves it behind, so a copied journal verifies in full on its first open.
const VerifiedHeadsTable = "journal_verified_heads"

// VerifiedHeadsDDL creates the verified head table; opens that recorded
// nothing never create it.
var VerifiedHeadsDDL = []string{`CREATE TABLE IF NOT EXISTS journal_verified_heads (
  workspace_id TEXT NOT NULL PRIMARY KEY,
  epoch_id TEXT NOT NULL,
  sequence INTEGER NOT NULL,
  hash TEXT NOT NULL,
  verified_at TEXT NOT NULL
)`}

// recordVerifiedHead replaces a workspace's record. Every record written
// is a head its open verified, so a slower opener that verified less and
// writes last only leaves a lower record (the next open verifies a little
// more), and a record that anchors nothing (beyond the head, say) is
// replaced by the next open that verified from genesis.
const recordVerifiedHead = `INSERT INTO journal_verified_heads (workspace_id, epoch_id, sequence, hash, verified_at)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (workspace_id) DO UPDATE SET epoch_id = excluded.epoch_id,
sequence = excluded.sequence, hash = excluded.hash, verified_at = excluded.verified_at`

// verifyOnOpen refuses a database any of whose journals fails
// verification, verifying each from its recorded head when that record
// re-checks (see above) and from genesis otherwise, all inside the
// snapshot conn holds. It returns the heads it verified at least
// recordAfter events beyond their record (or from genesis), for
// recordVerified.
func verifyOnOpen(ctx context.Context, conn *sql.Conn, directURI string) ([]store.JournalHead, error) {
	heads, err := readHeads(ctx, conn)
	if err != nil {
		return nil, err
	}
	records, err := readVerifiedHeads(ctx, conn)
	if err != nil {
		return nil, err
	}
	c := &chains{q: conn, conn: conn, sessionCol: "session_id", directURI: directURI}
	var advanced []store.JournalHead
	for _, h := range heads {
		rec, has := records[h.WorkspaceID]
		from, verdict, err := verifyFromRecord(ctx, c, h, rec, has)
		if err != nil {
			return nil, err
		}
		switch verdict {
		case chainBroken:
			return nil, journalInvalid(h.WorkspaceID)
		case chainRewritten:
			return nil, journalRewritten(h.WorkspaceID, rec.Sequence)
		}
		if h.Sequence-from >= recordAfter {
			advanced = append(advanced, h)
		}
	}
	return advanced, nil
}

// recordAfter is how many events an open must have verified beyond a
// workspace's record (or from genesis) before it writes a new one:
// verifying fewer costs well under a millisecond, less than the write
// transaction that would record them (a commit, and every watcher of the
// file woken by it). So no open verifies more than about this many events
// besides those since its record, and a small journal is never recorded:
// the file keeps exactly the reference's tables until its journals grow.
const recordAfter = 256

// chainVerdict is what an open found of one journal.
type chainVerdict int

const (
	chainValid chainVerdict = iota
	chainBroken
	chainRewritten
)

// verdictOf maps a verification's outcome to a verdict.
func verdictOf(ok bool) chainVerdict {
	if ok {
		return chainValid
	}
	return chainBroken
}

// verifyFromRecord verifies h's journal from rec when rec re-checks, and
// from genesis when it does not (or there is none), and returns the
// sequence it verified from.
func verifyFromRecord(ctx context.Context, c *chains, h, rec store.JournalHead, has bool) (int64, chainVerdict, error) {
	if has {
		rechecked, err := recheckRecord(ctx, c.conn, h, rec)
		if err != nil {
			return 0, chainBroken, err
		}
		switch rechecked {
		case rewritten:
			return 0, chainRewritten, nil
		case anchors:
			ok, err := verifySince(ctx, c.conn, h, rec)
			return rec.Sequence, verdictOf(ok), err
		}
	}
	ok, err := journal.VerifyChain(store.Stored(ctx, c, h), 0, nil)
	return 0, verdictOf(ok), err
}

// recheck is what the event a record names says about the journal.
type recheck int

const (
	// unanchored: the record cannot anchor a verification (another epoch,
	// beyond the head, its event missing or not hashing to its own stored
	// hash): verify from genesis, which decides.
	unanchored recheck = iota
	// anchors: the event hashes, from its stored columns, to its stored
	// hash, which is the one recorded.
	anchors
	// rewritten: the event is self-consistent but its hash is not the one
	// recorded. Within one epoch the event at a sequence never changes,
	// so the journal was re-chained since it was verified: refused, even
	// though the rewritten chain may verify from genesis.
	rewritten
)

// recheckRecord re-checks the event rec names in h's journal.
func recheckRecord(ctx context.Context, conn *sql.Conn, h, rec store.JournalHead) (recheck, error) {
	if rec.EpochID != h.EpochID || rec.Sequence < 1 || rec.Sequence > h.Sequence {
		return unanchored, nil
	}
	var hasher journal.Hasher
	verdict := unanchored
	err := streamRaw(ctx, conn, h, span{after: rec.Sequence - 1, upTo: rec.Sequence}, func(e *journal.Event) error {
		switch {
		case e.Sequence != rec.Sequence || !hasher.Matches(e):
			verdict = unanchored
		case e.Hash == rec.Hash:
			verdict = anchors
		default:
			verdict = rewritten
		}
		return nil
	})
	if errors.Is(err, journal.ErrUnreadableEvent) {
		return unanchored, nil
	}
	return verdict, err
}

// verifySince verifies the events after rec up to h (and that none lies
// beyond it): each link, each recomputed hash, and the head's hash.
func verifySince(ctx context.Context, conn *sql.Conn, h, rec store.JournalHead) (bool, error) {
	r := journal.Range{FromSequence: rec.Sequence, FromHash: rec.Hash, ToSequence: h.Sequence, ToHash: h.Hash,
		Feed: func(emit func(e *journal.Event) error) error {
			return streamRaw(ctx, conn, h, span{after: rec.Sequence, upTo: math.MaxInt64}, emit)
		}}
	ok, err := journal.VerifyRanges([]journal.Range{r}, journal.ChainWorkers())
	if errors.Is(err, journal.ErrUnreadableEvent) {
		return false, nil
	}
	return ok, err
}

// readVerifiedHeads returns the recorded heads by workspace id; none when
// the file has no record table.
func readVerifiedHeads(ctx context.Context, q Querier) (map[string]store.JournalHead, error) {
	out := map[string]store.JournalHead{}
	if has, err := tableExists(ctx, q, VerifiedHeadsTable); err != nil || !has {
		return out, err
	}
	rows, err := q.QueryContext(ctx, "SELECT workspace_id, epoch_id, sequence, hash FROM journal_verified_heads")
	if err != nil {
		return nil, fmt.Errorf("read the verified journal heads: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h store.JournalHead
		if err := rows.Scan(&h.WorkspaceID, &h.EpochID, &h.Sequence, &h.Hash); err != nil {
			// A record that does not read is no anchor: verify from genesis.
			continue
		}
		out[h.WorkspaceID] = h
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the verified journal heads: %w", err)
	}
	return out, nil
}

// recordVerified records heads, each verified by this open, in one write
// transaction after the open succeeded. It is best effort: a file whose
// record cannot be written now (another process holds the write lock past
// the wait) opens all the same, and its next open verifies from the older
// record.
func (s *DB) recordVerified(ctx context.Context, heads []store.JournalHead) {
	if len(heads) == 0 {
		return
	}
	_ = s.writeVerifiedHeads(ctx, heads) //nolint:errcheck // best effort, see above
}

func (s *DB) writeVerifiedHeads(ctx context.Context, heads []store.JournalHead) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin recording the verified heads: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	for _, ddl := range VerifiedHeadsDDL {
		if _, err := tx.ExecContext(ctx, ddl); err != nil {
			return fmt.Errorf("create the verified head table: %w", err)
		}
	}
	at := s.nowISO()
	for _, h := range heads {
		if _, err := tx.ExecContext(ctx, recordVerifiedHead, h.WorkspaceID, h.EpochID, h.Sequence, h.Hash, at); err != nil {
			return fmt.Errorf("record the verified head of %s: %w", h.WorkspaceID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit the verified heads: %w", err)
	}
	return nil
}

func journalRewritten(workspaceID string, sequence int64) error {
	return collaberr.New(collaberr.DatabaseJournalInvalid,
		"A workspace journal was rewritten after an earlier open verified it: its event at the recorded sequence "+
			"no longer has the hash verified then; the file was changed outside collab").
		With("workspace_id", workspaceID).With("verified_sequence", sequence)
}

func journalInvalid(workspaceID string) error {
	return collaberr.New(collaberr.DatabaseJournalInvalid,
		"A workspace journal fails hash-chain verification; the file was changed outside collab").
		With("workspace_id", workspaceID)
}

// VerifySinceRecord verifies h's journal from the head recorded for it,
// as an open does, without recording anything (store.RecordedChains).
func (c *chains) VerifySinceRecord(ctx context.Context, h store.JournalHead) (bool, int64, error) {
	if c.conn == nil { // inside a migration: no raw stream, verify from genesis
		ok, err := journal.VerifyChain(store.Stored(ctx, c, h), 0, nil)
		return ok, 0, err
	}
	records, err := readVerifiedHeads(ctx, c.q)
	if err != nil {
		return false, 0, err
	}
	rec, has := records[h.WorkspaceID]
	from, verdict, err := verifyFromRecord(ctx, c, h, rec, has)
	return verdict == chainValid, from, err
}
