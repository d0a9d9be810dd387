package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// One round trip for what waits.
//
// A write transaction's BEGIN is not sent on its own: it waits, like the
// held writes (held.go), for the first statement that must reach the
// server, and goes in one batch with it. So do the held writes that
// statement may depend on. A report append thus costs its reads and the
// COMMIT, with nothing sent for BEGIN or for a read's dependencies alone.
// A connection lost with a batch that carries no COMMIT is lost before
// COMMIT (connloss.go): the server rolls the transaction back, and Write
// runs it again.

// pipeline sends, in one batch, the transaction's BEGIN if it has not
// been sent, its held writes, then stmts, then COMMIT when commit is set,
// and returns each of stmts' answers, read whole. The first failure fails
// the transaction: it is returned, and kept (heldErr) unless the batch
// carried the COMMIT, whose failure commit settles itself.
func (t *Tx) pipeline(ctx context.Context, stmts []heldWrite, commit bool) ([]*bufferedRows, error) {
	if t.heldErr != nil {
		return nil, t.heldErr
	}
	begin, held := !t.begun, t.held
	t.begun, t.held = true, nil
	if !begin && len(held) == 0 && len(stmts) == 0 && !commit {
		return nil, nil
	}
	t.sends++
	b := &pgx.Batch{}
	if begin {
		b.Queue(beginWrite)
	}
	for _, h := range held {
		b.Queue(h.query, h.args...)
	}
	for _, s := range stmts {
		b.Queue(s.query, s.args...)
	}
	if commit {
		b.Queue("COMMIT")
	}
	t.trip()
	var answers []*bufferedRows
	err := t.conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("send a batch: the connection is a %T, not pgx's", driverConn)
		}
		results := c.Conn().SendBatch(ctx, b)
		var err error
		var failed int
		answers, failed, err = readPipeline(results, t.conn, begin, held, len(stmts), commit)
		t.heldOwner = t.member
		if failed >= 0 {
			t.heldOwner = held[failed].owner
		}
		if closeErr := results.Close(); err == nil {
			err = closeErr
		}
		return err
	})
	if err != nil && !commit {
		t.heldErr = err
	}
	return answers, err
}

// readPipeline reads the answers of a batch pipeline queued, in order,
// up to the first failure (what follows it failed with it, as the
// transaction is aborted; closing the results reads the rest). failed is
// the index in held of the write that failed, or -1.
func readPipeline(results pgx.BatchResults, conn *sql.Conn, begin bool, held []heldWrite, stmts int, commit bool) (answers []*bufferedRows, failed int, err error) {
	if begin {
		if _, err := results.Exec(); err != nil {
			return nil, -1, fmt.Errorf("begin write transaction: %w", err)
		}
	}
	for i, h := range held {
		if _, err := results.Exec(); err != nil {
			return nil, i, fmt.Errorf("%s: %w", statementHead(h.query), err)
		}
	}
	answers = make([]*bufferedRows, stmts)
	for i := range answers {
		if answers[i], err = bufferRows(results, conn); err != nil {
			return nil, -1, err
		}
	}
	if commit {
		tag, err := results.Exec()
		if err == nil && tag.String() != "COMMIT" {
			err = errRolledBack
		}
		if err != nil {
			return nil, -1, err
		}
	}
	return answers, -1, nil
}

// sendsFirst reports whether query must go in a batch behind what the
// transaction holds back: its BEGIN, or a held write on a table the query
// names.
func (t *Tx) sendsFirst(query string) bool {
	if t.conn == nil {
		return false
	}
	if !t.begun {
		return true
	}
	for _, h := range t.held {
		if h.barrier || namesAny(query, h.tables) {
			return true
		}
	}
	return false
}

// sendOne sends query behind what the transaction holds back and returns
// its answer.
func (t *Tx) sendOne(ctx context.Context, query string, args []any) (*bufferedRows, error) {
	answers, err := t.pipeline(ctx, []heldWrite{{query: query, args: args}}, false)
	if err != nil {
		return nil, err
	}
	return answers[0], nil
}
