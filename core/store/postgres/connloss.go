package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agenttool/collab/core/collaberr"
)

// Lost connections and refused privileges.
//
// A connection can go at any moment: the server restarts, an operator
// ends the backend (pg_terminate_backend), the network drops. database/sql
// discards a broken connection and opens a new one for the next caller,
// so the engine reconnects by itself; what it must decide is what
// happened to the transaction that was running:
//
//   - Lost before COMMIT was sent (at BEGIN, at any statement): the
//     server rolls an unfinished transaction back, so nothing was written. Write runs fn
//     again, exactly as after a serialization failure, for the same
//     bounded window, waiting out a restarting server.
//   - Lost during COMMIT: the transaction may or may not have committed.
//     Running fn again blindly could apply a mutation twice (a receipt
//     makes a keyed replay safe, but not every write carries a key), and
//     reporting failure could deny a write that is in the journal. So the
//     engine asks the journal, on a new connection, for what the
//     transaction wrote that no other can have written (witness.go): its
//     event, else its receipt. Found is success; absent runs fn again.
//     Only when nothing it wrote can tell, or the server cannot answer
//     within the window, does the caller get write_outcome_unknown, whose
//     message says to repeat the call with the same idempotency key: a
//     replay returns the first result if it was written. A transaction id
//     never decides it: after a crash the server issues ids again.
//   - A Read is not run again (its fn may gather results as it goes): its
//     BEGIN waits out a restarting server, and a connection lost inside it
//     is reported as ErrConnectionLost, which nothing was written by.
//
// A privilege the role lacks (SQLSTATE 42501) is ErrPrivilege, whose
// message names the object the server refused and points to the
// least-privilege recipe of docs/postgres.md. None of these messages holds
// the address's password: pgx's errors never quote it.

// ErrConnectionLost is wrapped by the error of a transaction whose
// connection to the server was lost before it committed, after the retry
// window: nothing was written, and the call can be repeated.
var ErrConnectionLost = errors.New("lost the connection to the PostgreSQL server; nothing was written, so the call can be repeated")

// commitUnknown is the error of a write whose connection was lost during
// COMMIT when the journal could not say whether it committed: a
// write_outcome_unknown refusal (what the caller sees), wrapping cause.
func commitUnknown(cause error) error {
	return &outcomeError{kind: collaberr.New(collaberr.WriteOutcomeUnknown,
		"The connection to the PostgreSQL server was lost while the write was committing, and the journal cannot tell whether it committed; "+
			"repeat the call with the same idempotency_key: a replay returns the first result if it was written, and applies it once if not"),
		cause: cause}
}

// IsCommitUnknown reports whether err says that a write's COMMIT lost its
// connection and its outcome is unknown (write_outcome_unknown).
func IsCommitUnknown(err error) bool { return collaberr.HasCode(err, collaberr.WriteOutcomeUnknown) }

// ErrPrivilege is wrapped by the error of a statement the server refused
// because the role lacks a privilege.
var ErrPrivilege = errors.New("the PostgreSQL role lacks a privilege collab needs " +
	"(grant the ones listed under \"Least-privilege role\" in docs/postgres.md)")

// outcomeError carries an engine failure's kind (one of the Err values
// above) and its cause; its text is the kind's sentence, then the cause.
type outcomeError struct {
	kind  error
	cause error
}

func (e *outcomeError) Error() string   { return e.kind.Error() + ": " + e.cause.Error() }
func (e *outcomeError) Unwrap() []error { return []error{e.kind, e.cause} }

// lostBeforeCommit marks a connection loss after which the transaction is
// known not to have committed, so running it again is safe.
type lostBeforeCommit struct{ cause error }

func (e *lostBeforeCommit) Error() string { return e.cause.Error() }
func (e *lostBeforeCommit) Unwrap() error { return e.cause }

// connectionLost reports whether err says the connection to the server is
// gone or cannot be made: a network or protocol failure, a closed
// connection, or the server ending sessions (SQLSTATE class 08, and 57P01
// admin shutdown / terminated backend, 57P02 crash, 57P03 starting up or
// shutting down).
func connectionLost(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03"
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, pgconn.ErrConnClosed) || errors.Is(err, io.EOF) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, net.ErrClosed) || errors.As(err, &ce) || errors.As(err, &ne)
}

// classify turns a failed transaction's error into what Write and Read
// return: a lost connection or a refused privilege gets its kind.
func classify(err error) error {
	var pe *pgconn.PgError
	switch {
	case err == nil || IsCommitUnknown(err) || errors.Is(err, ErrConnectionLost) || errors.Is(err, ErrPrivilege):
		return err
	case errors.As(err, &pe) && pe.Code == "42501":
		return &outcomeError{kind: ErrPrivilege, cause: err}
	case connectionLost(err):
		return &outcomeError{kind: ErrConnectionLost, cause: err}
	}
	return err
}

// rerunnable reports whether a failed write may run again: a
// serialization failure, a deadlock, or a connection lost before COMMIT.
// A COMMIT of unknown outcome never runs again, whatever its cause.
func rerunnable(err error) bool {
	if IsCommitUnknown(err) {
		return false
	}
	var lost *lostBeforeCommit
	return retriable(err) || errors.As(err, &lost) || connectionLost(err)
}

// begin starts a transaction, waiting out a server that cannot be reached
// (restarting, or every pooled connection broken) until deadline.
func (e *Engine) begin(ctx context.Context, opts *sql.TxOptions, deadline time.Time) (*sql.Tx, error) {
	for attempt := 0; ; attempt++ {
		tx, err := e.pool.BeginTx(ctx, opts)
		if err == nil || !connectionLost(err) || time.Now().After(deadline) {
			return tx, err
		}
		if err := pause(ctx, backoff(attempt)); err != nil {
			return nil, err
		}
	}
}

// beginWrite is the statement that begins a write transaction.
const beginWrite = "BEGIN ISOLATION LEVEL SERIALIZABLE"

// writeConn takes a connection for a write transaction, waiting out a
// server that cannot be reached until deadline. The transaction's BEGIN
// goes with its first statement (batch.go). The caller ends the
// transaction (commit or rollback) and then closes the connection, which
// returns it to the pool.
func (e *Engine) writeConn(ctx context.Context, deadline time.Time) (*sql.Conn, error) {
	for attempt := 0; ; attempt++ {
		conn, err := e.pool.Conn(ctx)
		if err == nil {
			return conn, nil
		}
		if !connectionLost(err) || time.Now().After(deadline) {
			return nil, err
		}
		if err := pause(ctx, backoff(attempt)); err != nil {
			return nil, err
		}
	}
}

// rollback ends conn's write transaction without keeping anything. A
// connection that cannot say it did is closed rather than pooled, so that
// no later transaction finds itself inside this one.
func rollback(conn *sql.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := conn.ExecContext(ctx, "ROLLBACK"); err != nil {
		discard(conn)
	}
}

// discard makes database/sql close conn instead of pooling it.
func discard(conn *sql.Conn) {
	_ = conn.Raw(func(any) error { return driver.ErrBadConn })
	_ = conn.Close()
}

// commit commits write transaction t, sending its held writes with the
// COMMIT; a transaction that sent nothing has nothing to commit. A
// COMMIT whose connection is lost is settled by what the transaction
// wrote (settle, witness.go).
func (e *Engine) commit(ctx context.Context, t *Tx, deadline time.Time) error {
	if !t.begun && len(t.held) == 0 {
		return nil // nothing was sent, so there is nothing to commit
	}
	_, err := t.pipeline(ctx, nil, true)
	if err == nil {
		return nil
	}
	rollback(t.conn)
	if !connectionLost(err) {
		return fmt.Errorf("commit: %w", err)
	}
	return e.settle(ctx, t.witness, fmt.Errorf("commit: %w", err), deadline)
}
