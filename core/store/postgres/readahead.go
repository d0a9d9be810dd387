//go:build !collab_noreadahead

package postgres

import (
	"context"
	"maps"
	"reflect"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// Reads ahead: a speed trick, and this file is all of it on the engine's
// side (the rules name a poll's and an acknowledgement's reads in
// core/store/readahead.go). Building with -tags collab_noreadahead leaves
// it out (readahead_off.go stands in): every read then goes to the server
// when it is made, with the same answers. Its gain: docs/performance.md.
//
// A poll reads six things that do not depend on one another once its
// session and journal head are known (the cursor's event, the pending
// offers, the event page, the tasks, the repository's reservations and
// the reports), and on a server each read on its own costs a round trip.
// ReadAhead is told which reads are coming: it runs them against a
// recorder, which keeps each statement and its arguments and answers with
// no rows, and the first of them the transaction really asks for sends all
// of them (after the held writes) in one batch. Each later query that
// asks for a statement of the batch, with equal arguments, is answered
// from the rows the batch read; any other query goes to the server as
// before.
//
// What keeps it exact:
//   - The rows answer only the statement they were read for, once.
//   - A write, once the batch is sent, drops the rows left of every
//     statement naming a table it writes (all of them, for a write whose
//     tables cannot be told): they were read before it and could not see
//     it. Before the batch is sent a write changes nothing, as the batch
//     carries the held writes first and an immediate write has already
//     run.
//   - A statement of the batch that fails aborts the transaction, as it
//     would have on its own; the failure is kept (heldErr), so Write
//     returns it and runs a serialization failure again.

// ReadAhead records the statements reads would run and sends them, in one
// batch, with the first of them the transaction asks for. Only a write
// transaction reads ahead; reads runs against a recorder whose queries
// return no rows, so it must only read, and whatever it returns is of no
// use. A read-ahead replaces one not yet used up.
func (t *Tx) ReadAhead(ctx context.Context, reads func(tx store.Tx)) {
	if !t.write || t.heldErr != nil || t.recording != nil {
		return
	}
	r := &Tx{write: true, recording: &recorder{}, heads: maps.Clone(t.heads), workspaces: maps.Clone(t.workspaces)}
	r.Tx = sqltx.NewTx(r, dialect)
	reads(r)
	t.ahead = nil
	if len(r.recording.stmts) > 0 {
		t.ahead = &readAhead{stmts: r.recording.stmts}
	}
}

// recorder keeps the statements a read-ahead will send. A write stops it:
// what would be read after a write is not known.
type recorder struct {
	stmts   []heldWrite
	stopped bool
}

func (r *recorder) read(query string, args []any) {
	if !r.stopped {
		r.stmts = append(r.stmts, heldWrite{query: query, args: args})
	}
}

// readAhead is a batch of reads: recorded, then sent, then used up one
// statement at a time.
type readAhead struct {
	stmts   []heldWrite
	answers []*bufferedRows // once sent, one per statement; nil when used
}

// readAhead answers query from the read-ahead batch when it holds the
// statement with equal arguments, sending the batch first if it has not
// been; ok is false when the query must go to the server on its own. In a
// recorder it records the query and answers with no rows.
func (t *Tx) readAhead(ctx context.Context, query string, args []any) (rows sqltx.Rows, err error, ok bool) {
	if t.recording != nil {
		t.recording.read(query, args)
		return &bufferedRows{}, nil, true
	}
	a := t.ahead
	if a == nil {
		return nil, nil, false
	}
	i := a.find(query, args)
	if i < 0 {
		return nil, nil, false
	}
	if a.answers == nil {
		if err := t.sendAhead(ctx); err != nil {
			t.ahead = nil
			return nil, err, true
		}
	}
	answer := a.answers[i]
	a.answers[i] = nil
	return answer, nil, true
}

// find returns the index of the unused statement equal to query with
// args, or -1.
func (a *readAhead) find(query string, args []any) int {
	for i, s := range a.stmts {
		if a.answers != nil && a.answers[i] == nil {
			continue
		}
		if s.query == query && reflect.DeepEqual(s.args, args) {
			return i
		}
	}
	return -1
}

// wrote tells the read-ahead that the transaction runs the write query:
// the rows already read of every statement naming a table it writes are
// dropped, or all of them when the tables it writes cannot be told.
func (t *Tx) wrote(query string) {
	if t.recording != nil {
		t.recording.stopped = true
	}
	a := t.ahead
	if a == nil || a.answers == nil {
		return
	}
	tables := writtenTables(query)
	if len(tables) == 0 {
		t.ahead = nil
		return
	}
	for i, s := range a.stmts {
		if a.answers[i] != nil && namesAny(s.query, tables) {
			a.answers[i] = nil
		}
	}
}

// sendAhead sends the read-ahead statements behind what the transaction
// holds back, in one batch, and keeps every statement's rows.
func (t *Tx) sendAhead(ctx context.Context) error {
	a := t.ahead
	answers, err := t.pipeline(ctx, a.stmts, false)
	if err != nil {
		return err
	}
	a.answers = answers
	return nil
}
