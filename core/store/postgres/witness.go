package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// Settling a lost COMMIT by what the transaction wrote.
//
// When the connection goes during COMMIT, the transaction may or may not
// have committed, and the engine must find out before it answers. A
// transaction id cannot tell: ids are not made durable one by one, so after
// a crash the server hands out again every id above its last durable
// point, and the status of this transaction's id may then be another
// writer's later commit (issue 36 saw xid 727 reissued, and acknowledged
// writes that were never in the journal). What the transaction itself
// wrote can tell, when no other transaction can have written it:
//
//   - An event. Its id is a fresh random UUID and its place is one
//     (workspace, sequence): the event at that place has this id if and
//     only if this transaction committed. First the workspace row is read
//     FOR SHARE, which waits until a transaction still holding its lock
//     (the old backend, if the server did not crash and it has not
//     finished) ends; the event is read after that, so it is not missed
//     for being in flight.
//   - An idempotency receipt, when there is no event. A receipt is unique
//     per scope: a row equal, column for column, to the one this
//     transaction inserted means it committed (were it another's with the
//     very same bytes, the journal would hold just what this one leaves),
//     and any other answer means it did not, so running it again is safe:
//     its receipt lookup replays whatever holds the key, and its insert
//     waits for a transaction still in flight and then fails it into a
//     retry that finds the receipt.
//   - Nothing else but writes that are harmless to repeat (a session's or
//     worktree's last-seen time; a transaction that wrote nothing at all):
//     it is run again.
//
// Anything else (a cursor moved, or any other row changed without an
// event or a receipt) cannot be placed: the answer is
// write_outcome_unknown, telling the caller to repeat the call with the
// same idempotency key. So is a server that does not answer within the
// retry window. A COMMIT that was acknowledged is never asked about:
// PostgreSQL, with fsync and synchronous_commit on (their defaults), has
// made it durable before it answers.

// witness is what a write transaction wrote that only it can have written,
// for settling its COMMIT if the connection is lost (settle).
type witness struct {
	// event is the last event the transaction appended, if any.
	event *journal.Event
	// receipt is the last idempotency receipt it inserted, if any.
	receipt *witnessReceipt
	// writes counts the write statements the transaction ran or held;
	// repeatable counts those that are harmless to apply twice.
	writes, repeatable int
}

// witnessReceipt is one inserted receipt: its scope and every column.
type witnessReceipt struct {
	scope     store.ReceiptScope
	receipt   store.Receipt
	createdAt string
}

// outcome is what settle learned of a lost COMMIT.
type outcome int

const (
	committed outcome = iota // the transaction is in the journal
	absent                   // it is not, and running it again is safe
	unplaced                 // nothing it wrote can tell
)

// InsertReceipt stores r for scope (sqltx.Tx.InsertReceipt) and keeps it as
// the transaction's witness.
func (t *Tx) InsertReceipt(ctx context.Context, scope store.ReceiptScope, r store.Receipt, createdAt string) error {
	if err := t.Tx.InsertReceipt(ctx, scope, r, createdAt); err != nil {
		return err
	}
	if t.write && t.recording == nil {
		t.witness.receipt = &witnessReceipt{scope: scope, receipt: r, createdAt: createdAt}
	}
	return nil
}

// UpdateSession writes a session's changed columns (sqltx.Tx.UpdateSession);
// a write of the last-seen time alone is harmless to apply twice.
func (t *Tx) UpdateSession(ctx context.Context, before, after store.CoordinationSession) (bool, error) {
	ok, err := t.Tx.UpdateSession(ctx, before, after)
	if err != nil {
		return false, err
	}
	if slices.Equal(sqltx.SessionChanges(before, after).Columns(), []string{"last_seen_at"}) {
		t.repeatableWrite()
	}
	return ok, nil
}

// UpdateWorktree writes a worktree's changed columns
// (sqltx.Tx.UpdateWorktree): only its last observed Git state and
// last-seen time ever change, a write that is harmless to apply twice.
func (t *Tx) UpdateWorktree(ctx context.Context, before, after store.Worktree) error {
	if err := t.Tx.UpdateWorktree(ctx, before, after); err != nil {
		return err
	}
	if !sqltx.WorktreeChanges(before, after).Empty() {
		t.repeatableWrite()
	}
	return nil
}

// counted notes one write statement of a write transaction (ExecContext,
// ExecLater); statements a recorder answers are not sent and not counted.
func (t *Tx) counted() {
	if t.write && t.recording == nil {
		t.witness.writes++
	}
}

// repeatableWrite marks the write just counted as harmless to repeat.
func (t *Tx) repeatableWrite() {
	if t.write && t.recording == nil {
		t.witness.repeatable++
	}
}

// settle learns, on new connections, whether the transaction whose COMMIT
// lost its connection (lost) committed: nil if it did, lostBeforeCommit if
// it did not or may safely run again (so Write runs it again), and a
// write_outcome_unknown refusal if nothing it wrote can tell or the server
// does not answer before deadline.
func (e *Engine) settle(ctx context.Context, w witness, lost error, deadline time.Time) error {
	for attempt := 0; ; attempt++ {
		found, err := e.place(ctx, w)
		switch {
		case err == nil && found == committed:
			return nil
		case err == nil && found == absent:
			return &lostBeforeCommit{cause: lost}
		case err == nil:
			return commitUnknown(lost)
		case !connectionLost(err) && !retriable(err):
			return commitUnknown(fmt.Errorf("%v; then asking the journal for it: %w", lost, err))
		}
		// The server is not back yet, or the look met a writer: ask again.
		if time.Now().After(deadline) {
			return commitUnknown(lost)
		}
		if err := pause(ctx, backoff(attempt)); err != nil {
			return commitUnknown(lost)
		}
	}
}

// place looks in the journal for what w says the transaction wrote (see
// the comment at the top of this file).
func (e *Engine) place(ctx context.Context, w witness) (outcome, error) {
	switch {
	case w.event != nil:
		return e.placeEvent(ctx, w.event)
	case w.receipt != nil:
		return e.placeReceipt(ctx, w.receipt)
	case w.writes == w.repeatable:
		return absent, nil
	}
	return unplaced, nil
}

// placeEvent reports whether ev is in the journal, once no transaction
// holds its workspace's row lock any more. It runs at READ COMMITTED
// whatever the database's default, so that the event is read in a
// snapshot taken after the wait.
func (e *Engine) placeEvent(ctx context.Context, ev *journal.Event) (outcome, error) {
	tx, err := e.pool.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return unplaced, fmt.Errorf("begin looking for the event: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // it changes nothing
	var one int
	err = tx.QueryRowContext(ctx, "SELECT 1 FROM workspaces WHERE id = $1 FOR SHARE", ev.WorkspaceID).Scan(&one)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return unplaced, fmt.Errorf("wait for the workspace's writers: %w", err)
	}
	var id, hash string
	err = tx.QueryRowContext(ctx, "SELECT id, hash FROM events WHERE workspace_id = $1 AND sequence = $2",
		ev.WorkspaceID, ev.Sequence).Scan(&id, &hash)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return absent, nil
	case err != nil:
		return unplaced, fmt.Errorf("read the event at sequence %d: %w", ev.Sequence, err)
	case id == ev.ID && hash == ev.Hash:
		return committed, nil
	}
	return absent, nil
}

// placeReceipt reports whether the receipt r is in the journal as the
// transaction wrote it.
func (e *Engine) placeReceipt(ctx context.Context, r *witnessReceipt) (outcome, error) {
	var operation, requestHash, response, createdAt string
	err := e.pool.QueryRowContext(ctx, `SELECT operation, request_hash, response_json, created_at FROM mutations
WHERE workspace_id = $1 AND actor = $2 AND idempotency_key = $3`, r.scope.WorkspaceID, r.scope.Actor, r.scope.Key).
		Scan(&operation, &requestHash, &response, &createdAt)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return absent, nil
	case err != nil:
		return unplaced, fmt.Errorf("read the receipt: %w", err)
	case operation == r.receipt.Operation && requestHash == r.receipt.RequestHash &&
		response == string(r.receipt.Response) && createdAt == r.createdAt:
		return committed, nil
	}
	return absent, nil
}
