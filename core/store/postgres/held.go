package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Held writes.
//
// Every statement sent on its own costs a round trip to the server, and a
// mutation ends with writes whose results nothing reads: the report row,
// the idempotency receipt, the session's last-seen time, the event itself
// (its sequence and hash were decided under the head's lock). A write
// transaction holds such writes back (ExecLater, which sqltx uses for them)
// and sends them in one batch with the next statement that may depend on
// them or with the COMMIT, in one round trip: a report append makes five
// round trips instead of nine.
//
// What keeps it safe:
//   - Order. Held writes are sent in the order they were made, and before
//     any later statement whose text names a table one of them writes
//     (sendHeldBefore), so the transaction reads its own writes. The schema
//     has no views, rules or triggers that would read a table unnamed.
//   - Failure. A held write that fails aborts the transaction; the failure
//     is kept (heldErr) and is what Write returns, so a serialization
//     failure is still run again and a privilege error still named, even
//     when it surfaced under a later statement.
//   - The lost COMMIT. A batch that carries the COMMIT is sent only once
//     the transaction's id is known, so a connection lost during it is
//     settled by asking the server, as a lone COMMIT is (connloss.go).

// heldWrite is a write waiting to be sent: its statement (placeholders
// rebound), arguments, and the tables it writes.
type heldWrite struct {
	query  string
	args   []any
	tables []string
}

// ExecLater holds a write whose result is not read until the next
// statement that names a table it writes, or the commit. Outside a write
// transaction it runs at once.
func (t *Tx) ExecLater(ctx context.Context, query string, args ...any) error {
	if !t.write {
		_, err := t.ExecContext(ctx, query, args...)
		return err
	}
	query = rebind(query)
	t.held = append(t.held, heldWrite{query: query, args: args, tables: writtenTables(query)})
	return nil
}

// sendHeldBefore sends the held writes if query names a table one of them
// writes.
func (t *Tx) sendHeldBefore(ctx context.Context, query string) error {
	if len(t.held) == 0 {
		return nil
	}
	lower := strings.ToLower(query)
	for _, h := range t.held {
		for _, table := range h.tables {
			if strings.Contains(lower, table) {
				return t.sendHeld(ctx, false)
			}
		}
	}
	return nil
}

// sendHeld sends the held writes in one batch, followed by COMMIT when
// commit is set (even with nothing held). A failure is kept as heldErr.
func (t *Tx) sendHeld(ctx context.Context, commit bool) error {
	if t.heldErr != nil {
		return t.heldErr
	}
	held := t.held
	t.held = nil
	if len(held) == 0 && !commit {
		return nil
	}
	err := t.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("send held writes: the connection is a %T, not pgx's", driverConn)
		}
		return sendBatch(ctx, c.Conn(), held, commit)
	})
	if err != nil && !commit {
		t.heldErr = err
	}
	return err
}

// errRolledBack is a COMMIT the server answered with ROLLBACK: the
// transaction had already failed.
var errRolledBack = errors.New("the server rolled the transaction back at COMMIT")

// sendBatch sends held, then COMMIT if commit is set, as one batch on c,
// and reads every answer in order; the first failure is returned, naming
// the statement.
func sendBatch(ctx context.Context, c *pgx.Conn, held []heldWrite, commit bool) error {
	b := &pgx.Batch{}
	for _, h := range held {
		b.Queue(h.query, h.args...)
	}
	if commit {
		b.Queue("COMMIT")
	}
	results := c.SendBatch(ctx, b)
	for _, h := range held {
		if _, err := results.Exec(); err != nil {
			_ = results.Close()
			return fmt.Errorf("%s: %w", statementHead(h.query), err)
		}
	}
	if commit {
		tag, err := results.Exec()
		if err == nil && tag.String() != "COMMIT" {
			err = errRolledBack
		}
		if err != nil {
			_ = results.Close()
			return err
		}
	}
	return results.Close()
}

// writtenTables returns the tables a write statement inserts into or
// updates, read from its text: the word after each INSERT INTO and each
// UPDATE, words being split at spaces and parentheses.
func writtenTables(query string) []string {
	var tables []string
	words := strings.FieldsFunc(query, func(r rune) bool {
		return r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '(' || r == ')' || r == ','
	})
	for i := 0; i+1 < len(words); i++ {
		var table string
		switch {
		case strings.EqualFold(words[i], "INSERT") && strings.EqualFold(words[i+1], "INTO") && i+2 < len(words):
			table = words[i+2]
		case strings.EqualFold(words[i], "UPDATE"):
			table = words[i+1]
		default:
			continue
		}
		tables = append(tables, strings.ToLower(table))
	}
	return tables
}

// statementHead is the start of a statement, enough to name it in an
// error: its first five words.
func statementHead(query string) string {
	words := strings.Fields(query)
	if len(words) > 5 {
		words = words[:5]
	}
	return strings.Join(words, " ")
}
