package transfer

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agenttool/collab/core/store/postgres"
)

// postgresBatchRows is how many rows one COPY carries.
const postgresBatchRows = 5000

// postgresSide is an open PostgreSQL journal, as a source or a target.
// Both run on one connection of the engine's pool, through pgx directly:
// COPY is what makes a bulk load fast, and database/sql has no word for it.
type postgresSide struct {
	e *postgres.Engine
}

func openPostgres(ctx context.Context, url string) (*postgresSide, error) {
	e, err := postgres.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	return &postgresSide{e: e}, nil
}

func (p *postgresSide) close() error { return p.e.Close() }

// withTx runs fn in one pgx transaction on one pooled connection.
func (p *postgresSide) withTx(ctx context.Context, opts pgx.TxOptions, fn func(tx pgx.Tx) error) error {
	conn, err := p.e.Pool().Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	defer conn.Close()
	return conn.Raw(func(driverConn any) error {
		c, ok := driverConn.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("unexpected PostgreSQL driver connection %T", driverConn)
		}
		return pgx.BeginTxFunc(ctx, c.Conn(), opts, fn)
	})
}

// snapshot runs fn in one REPEATABLE READ, READ ONLY transaction.
func (p *postgresSide) snapshot(ctx context.Context, fn func(r reader) error) error {
	return p.withTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly},
		func(tx pgx.Tx) error { return fn(postgresReader{tx: tx}) })
}

// transaction runs fn in one READ COMMITTED transaction that first locks
// every copied table in EXCLUSIVE mode: readers go on reading the journal
// as it was, writers wait until the copy commits or rolls back, and no
// row can appear between the emptiness check and the copy.
func (p *postgresSide) transaction(ctx context.Context, fn func(w writer) error) error {
	return p.withTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "LOCK TABLE "+strings.Join(tableNames(), ", ")+" IN EXCLUSIVE MODE"); err != nil {
			return fmt.Errorf("lock the target's tables: %w", err)
		}
		return fn(postgresWriter{postgresReader{tx: tx}})
	})
}

// postgresReader queries one pgx transaction.
type postgresReader struct{ tx pgx.Tx }

func (r postgresReader) each(ctx context.Context, query string, args []any, fn func(vals []any) error) error {
	rows, err := r.tx.Query(ctx, numbered(query), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		vals, err := rows.Values()
		if err != nil {
			return err
		}
		if err := fn(vals); err != nil {
			return err
		}
	}
	return rows.Err()
}

// numbered rewrites ? placeholders as $1, $2, … (the queries here hold no
// literal question marks).
func numbered(query string) string {
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (r postgresReader) columns(ctx context.Context, name string) ([]string, error) {
	var out []string
	err := r.each(ctx, `SELECT column_name::text FROM information_schema.columns
WHERE table_schema = ? AND table_name = ? AND column_name <> 'row_id' ORDER BY ordinal_position`,
		[]any{postgres.SchemaName, name}, func(vals []any) error {
			out = append(out, fmt.Sprint(vals[0]))
			return nil
		})
	return out, err
}

func (postgresReader) orderBy(t table) string {
	if t.ordered {
		return "row_id"
	}
	return strings.Join(t.key, ", ")
}

// postgresWriter is the target transaction of a PostgreSQL journal.
type postgresWriter struct{ postgresReader }

// clear empties every copied table and restarts the row_id identities, so
// that a replaced journal numbers its rows as a fresh one would.
func (w postgresWriter) clear(ctx context.Context) error {
	if _, err := w.tx.Exec(ctx, "TRUNCATE "+strings.Join(tableNames(), ", ")+" RESTART IDENTITY"); err != nil {
		return fmt.Errorf("clear the target: %w", err)
	}
	return nil
}

func (postgresWriter) batch(table) int { return postgresBatchRows }

func (w postgresWriter) exec(ctx context.Context, stmt string) error {
	_, err := w.tx.Exec(ctx, stmt)
	return err
}

// create refuses: a PostgreSQL journal makes its tables beside the journal
// when its owner opens it, and only a role that may not create tables
// lacks one.
func (postgresWriter) create(_ context.Context, name string, _ []string) error {
	return fmt.Errorf("the target has no %s table to carry the source's rows into: open it once as the schema's owner, then copy again", name)
}

// insert loads rows with COPY, in order: the identity row_id is assigned
// in the order rows arrive, which keeps the source's row order.
func (w postgresWriter) insert(ctx context.Context, t table, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	if _, err := w.tx.CopyFrom(ctx, pgx.Identifier{postgres.SchemaName, t.name}, t.columns, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("copy into %s: %w", t.name, err)
	}
	return nil
}
