package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// This file answers, for a PostgreSQL journal, what the SQLite engine
// answers from its file: whether a journal exists before anything is
// created, a sanity check in place of SQLite's page check, the schema
// version, and a change signal.

// ErrNoJournal is returned by OpenExisting for a database that holds no
// collab schema yet.
var ErrNoJournal = errors.New("the database holds no collab journal yet (a server creates it on first open)")

// CheckAddress reports whether url is a PostgreSQL address pgx can read.
// Its error never quotes url: the driver's parse errors may hold a
// password.
func CheckAddress(url string) error {
	if _, err := pgx.ParseConfig(url); err != nil {
		return errors.New("not a valid PostgreSQL URL")
	}
	return nil
}

// OpenExisting is Open for readers (verify, doctor, the web view, search,
// guard): it creates nothing, and returns ErrNoJournal when the database
// has no collab schema. A schema it finds is checked as Open checks it.
func OpenExisting(ctx context.Context, url string) (*Engine, error) {
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		return nil, errors.New("parse PostgreSQL address: not a valid PostgreSQL URL")
	}
	db := stdlib.OpenDB(*cfg)
	defer db.Close()
	var made bool
	if err := db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
WHERE schemaname = $1 AND tablename = 'schema_version')`, SchemaName).Scan(&made); err != nil {
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	if !made {
		return nil, ErrNoJournal
	}
	return Open(ctx, url)
}

// Version returns the version recorded in collab.schema_version.
func (e *Engine) Version(ctx context.Context) (int64, error) {
	var v sql.NullInt64
	if err := e.pool.QueryRowContext(ctx, "SELECT max(version) FROM schema_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("read the %s schema version: %w", SchemaName, err)
	}
	return v.Int64, nil
}

// QuickCheck is the PostgreSQL counterpart of SQLite's page check. Pages
// are the server's business (data checksums, amcheck), so it checks what
// collab relies on instead: the schema is at SchemaVersion, and every
// table of the layout exists and can be read by this role. It returns the
// problems found (at most ten), none for a sound journal, and an error
// only when the server cannot be asked.
func (e *Engine) QuickCheck(ctx context.Context) ([]string, error) {
	var problems []string
	v, err := e.Version(ctx)
	if err != nil {
		return nil, err
	}
	if v != SchemaVersion {
		problems = append(problems, fmt.Sprintf("%s.schema_version is %d, this binary reads %d", SchemaName, v, SchemaVersion))
	}
	for _, name := range tableNames() {
		if len(problems) == 10 {
			break
		}
		var one int
		err := e.pool.QueryRowContext(ctx, "SELECT 1 FROM "+SchemaName+"."+name+" LIMIT 1").Scan(&one)
		if err != nil && err != sql.ErrNoRows {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			problems = append(problems, fmt.Sprintf("table %s.%s cannot be read: %v", SchemaName, name, err))
		}
	}
	return problems, nil
}

// tableNames lists the layout's tables, from the statements that create
// them.
func tableNames() []string {
	names := make([]string, 0, len(tables))
	for _, ddl := range tables {
		rest, ok := strings.CutPrefix(strings.TrimSpace(ddl), "CREATE TABLE ")
		if !ok {
			continue
		}
		if name, _, ok := strings.Cut(rest, " "); ok {
			names = append(names, name)
		}
	}
	return names
}

// ChangeSignal tells whether any transaction that wrote has ended on the
// server since the last look, from any process on any machine. Version
// reads the server's current snapshot (pg_current_snapshot(), PostgreSQL
// 13 or later): its text changes whenever a writing transaction commits
// or aborts, since the committed one either leaves the in-progress list or
// moves the snapshot's upper bound past itself. It also changes for
// writes to other databases of the same server, which costs a caller one
// needless look, never a missed change. One query per call, no table read
// and no lock. It is safe for concurrent use.
type ChangeSignal struct{ pool *sql.DB }

// ChangeSignal returns a signal on the engine's connections.
func (e *Engine) ChangeSignal() *ChangeSignal { return &ChangeSignal{pool: e.pool} }

// Version returns a hash of the server's current snapshot: two calls
// return different values whenever a writing transaction ended between
// them.
func (c *ChangeSignal) Version(ctx context.Context) (int64, error) {
	var snap string
	if err := c.pool.QueryRowContext(ctx, "SELECT pg_current_snapshot()::text").Scan(&snap); err != nil {
		return 0, fmt.Errorf("probe for changes: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte(snap))
	return int64(h.Sum64()), nil
}

// Close does nothing: the signal borrows the engine's connections.
func (c *ChangeSignal) Close() error { return nil }
