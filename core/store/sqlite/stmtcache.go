package sqlite

import (
	"context"
	"database/sql"
	"sync"

	"github.com/agenttool/collab/core/store/sqltx"
)

// maxCachedStatements bounds the statement cache; queries past the bound
// are prepared per use, as without a cache.
const maxCachedStatements = 512

// stmtCache prepares each distinct query once per pool. database/sql then
// keeps one driver statement per connection (keyed by the driver
// connection inside *sql.Stmt) and reuses it inside every transaction, so
// SQLite parses each query once per connection instead of on every
// execution.
//
// A statement is prepared on the pool only between transactions (flush):
// preparing inside one would wait for a pooled connection that the
// transaction itself may be holding.
//
// mu guards the maps only and is never held while waiting for anything
// else: flush prepares with mu released. Holding it across PrepareContext
// deadlocked the store, because the prepare waits for a pooled connection
// while the transaction holding that connection waits for mu in get.
type stmtCache struct {
	pool *sql.DB
	mu   sync.Mutex
	// stmts holds the prepared statements; pending the queries a
	// transaction asked for, true once a flush has taken one to prepare.
	stmts   map[string]*sql.Stmt
	pending map[string]bool
	closed  bool
}

func newStmtCache(pool *sql.DB) *stmtCache {
	return &stmtCache{pool: pool, stmts: map[string]*sql.Stmt{}, pending: map[string]bool{}}
}

// get returns the pool-level prepared statement for query, or nil when it
// is not prepared yet (it is then prepared at a later flush).
func (c *stmtCache) get(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.stmts[query]; ok {
		return st
	}
	if _, ok := c.pending[query]; !ok && len(c.stmts)+len(c.pending) < maxCachedStatements {
		c.pending[query] = false
	}
	return nil
}

// flush prepares the statements transactions asked for and no other flush
// has taken. The caller must hold no connection of the pool (it runs
// after the caller's transaction ended); the cache lock is not held while
// a statement is prepared, so waiting for a connection here never blocks
// a transaction that holds one.
func (c *stmtCache) flush(ctx context.Context) {
	for _, query := range c.take() {
		st, err := c.pool.PrepareContext(ctx, query)
		c.put(query, st, err)
	}
}

// take claims the queries waiting to be prepared.
func (c *stmtCache) take() []string {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var queries []string
	for query, taken := range c.pending {
		if !taken {
			c.pending[query] = true
			queries = append(queries, query)
		}
	}
	return queries
}

// put records the outcome of preparing query. A failed prepare (a
// cancelled context, a busy pool) is forgotten, so a later transaction
// asks for the query again.
func (c *stmtCache) put(query string, st *sql.Stmt, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.pending, query)
	if err != nil {
		return
	}
	if c.closed {
		st.Close()
		return
	}
	c.stmts[query] = st
}

// close closes every prepared statement; statements prepared by a flush
// still running are closed as they arrive.
func (c *stmtCache) close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = map[string]*sql.Stmt{}
}

// Tx is one transaction of the store. Its statements, the shared domain
// statements (sqltx.Tx) among them, come from the store's statement cache.
type Tx struct {
	sqltx.Tx
	tx    *sql.Tx
	stmts *stmtCache
	// batch is the context of the write batch the transaction serves
	// (groupcommit.go); nil outside one.
	batch context.Context
	// counted says CountTasks may read the task counts (task_counts.go).
	counted bool
}

// newTx wraps tx; stmts may be nil (no cache, as inside a migration).
func newTx(tx *sql.Tx, stmts *stmtCache) *Tx {
	t := &Tx{tx: tx, stmts: stmts}
	t.Tx = sqltx.NewTx(sqltx.WrapSQL(t), dialect)
	return t
}

// ExecContext runs a statement inside the transaction.
func (t *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	ctx = t.stmtCtx(ctx)
	if st := t.stmts.get(query); st != nil {
		return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

// QueryContext runs a query inside the transaction.
func (t *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	ctx = t.stmtCtx(ctx)
	if st := t.stmts.get(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

// QueryRowContext runs a single-row query inside the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	ctx = t.stmtCtx(ctx)
	if st := t.stmts.get(query); st != nil {
		return t.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}

// stmtCtx is the context a statement of the transaction runs under: in a
// write batch, the batch's (sqltx.BatchContext), so that a member whose
// caller has gone does not interrupt a statement, which in SQLite can
// roll back the whole transaction and with it the other members' writes;
// once the caller's own ctx has ended, that ctx, with which the statement
// fails before it reaches SQLite.
func (t *Tx) stmtCtx(ctx context.Context) context.Context {
	if t.batch == nil || ctx.Err() != nil {
		return ctx
	}
	return t.batch
}
