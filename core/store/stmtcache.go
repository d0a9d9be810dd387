package store

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStatements bounds the statement cache; queries past the bound
// are prepared per use, as without a cache.
const maxCachedStatements = 512

// stmtCache prepares each distinct query once per pool. database/sql then
// keeps one driver statement per connection and reuses it inside every
// transaction, so SQLite parses each query once per connection instead of
// on every execution.
//
// A statement is prepared on the pool only between transactions (flush):
// preparing inside one would wait for a pooled connection that the
// transaction itself may be holding.
type stmtCache struct {
	pool   *sql.DB
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, stmts: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// get returns the pool-level prepared statement for query, or nil when it
// is not prepared yet (it is then prepared at the next flush).
func (c *stmtCache) get(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st
	}
	if len(c.stmts)+len(c.wanted) < maxCachedStatements {
		c.wanted[query] = true
	}
	return nil
}

// flush prepares the statements transactions asked for. It runs while no
// transaction of the caller is open.
func (c *stmtCache) flush(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for query := range c.wanted {
		delete(c.wanted, query)
		if st, err := c.pool.PrepareContext(ctx, query); err == nil {
			c.stmts[query] = st
		}
	}
}

func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = map[string]*sql.Stmt{}
}

// Tx is one transaction of the store. Its statements come from the
// store's statement cache.
type Tx struct {
	tx    *sql.Tx
	stmts *stmtCache
}

// ExecContext runs a statement inside the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.stmts.get(query); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

// QueryContext runs a query inside the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.stmts.get(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a single-row query inside the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.stmts.get(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
