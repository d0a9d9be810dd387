package postgres

import (
	"context"
	"errors"
	"strings"
)

// Held writes.
//
// Every statement sent on its own costs a round trip to the server, and a
// mutation ends with writes whose results nothing reads: the report row,
// the idempotency receipt, the session's last-seen time, the event itself
// (its sequence and hash were decided under the head's lock). A write
// transaction holds such writes back (ExecLater, which sqltx uses for them)
// and sends them in one batch with the next statement that may depend on
// them or with the COMMIT, in one round trip (batch.go).
//
// What keeps it safe:
//   - Order. Held writes are sent in the order they were made, and before
//     any later statement whose text names a table one of them writes
//     (sendsFirst, batch.go), in one batch with it, so the transaction reads
//     its own writes. The schema has no views, rules or triggers that would
//     read a table unnamed.
//   - Failure. A held write that fails aborts the transaction; the failure
//     is kept (heldErr) and is what Write returns, so a serialization
//     failure is still run again and a privilege error still named, even
//     when it surfaced under a later statement.
//   - The lost COMMIT. A batch that carries the COMMIT is settled, when its
//     connection is lost, as a lone COMMIT is: by looking in the journal
//     for the event or receipt it carried (witness.go).

// heldWrite is a write waiting to be sent: its statement (placeholders
// rebound), arguments, and the tables it writes.
type heldWrite struct {
	query  string
	args   []any
	tables []string
	// barrier is set on a statement every later one waits behind, whatever
	// tables it names: a batch member's SAVEPOINT and RELEASE
	// (groupcommit.go).
	barrier bool
	// owner is the batch member that held it (Tx.member; 0 outside a
	// batch), which its failure is the answer of (groupcommit.go).
	owner int
}

// ExecLater holds a write whose result is not read until the next
// statement that names a table it writes, or the commit. Outside a write
// transaction it runs at once.
func (t *Tx) ExecLater(ctx context.Context, query string, args ...any) error {
	if !t.write || t.recording != nil {
		_, err := t.ExecContext(ctx, query, args...)
		return err
	}
	query = rebind(query)
	t.wrote(query)
	t.counted()
	t.held = append(t.held, heldWrite{query: query, args: args, tables: writtenTables(query), owner: t.member})
	return nil
}

// namesAny reports whether query's text names one of tables (lower case).
func namesAny(query string, tables []string) bool {
	lower := strings.ToLower(query)
	for _, table := range tables {
		if strings.Contains(lower, table) {
			return true
		}
	}
	return false
}

// errRolledBack is a COMMIT the server answered with ROLLBACK: the
// transaction had already failed.
var errRolledBack = errors.New("the server rolled the transaction back at COMMIT")

// writtenTables returns the tables a write statement inserts into,
// updates or deletes from, read from its text: the word after each INSERT
// INTO, each DELETE FROM and each UPDATE, words being split at spaces and
// parentheses. A statement it finds no such word in (a lock, a SELECT)
// yields none.
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
		case strings.EqualFold(words[i], "DELETE") && strings.EqualFold(words[i+1], "FROM") && i+2 < len(words):
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
