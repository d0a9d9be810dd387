package main

import (
	"database/sql"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store/postgres"
)

// journalEngine is one storage engine a process-level test can run on:
// setup points the sandbox's AGENTOOL_COLLAB_DB at a fresh journal of it
// (or skips the test when the engine is not available here).
type journalEngine struct {
	name  string
	setup func(t *testing.T, s *sandbox)
}

// journalEngines are the engines the engine-independent process tests
// run on: SQLite (the sandbox's file) and PostgreSQL (a fresh database on
// the test server, used through the least-privilege role docs/postgres.md
// recommends, so that every tool these tests call is shown to need no
// more; skipped locally and failed in CI without a server).
var journalEngines = []journalEngine{
	{"sqlite", func(*testing.T, *sandbox) {}},
	{"postgres", func(t *testing.T, s *sandbox) { leastPrivilegeJournal(t, s) }},
}

// openInspector opens the journal a setting names for inspection,
// read-only: a SQLite file, or a PostgreSQL URL whose collab schema is on
// the search path.
func openInspector(setting string) (*sql.DB, error) {
	if !place.IsPostgres(setting) {
		return sql.Open("sqlite", "file:"+setting+"?mode=ro&_pragma=busy_timeout(5000)")
	}
	cfg, err := pgx.ParseConfig(setting)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", place.RedactPostgres(setting), err)
	}
	cfg.RuntimeParams["search_path"] = postgres.SchemaName
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	return stdlib.OpenDB(*cfg), nil
}

// inspect adapts a query written for SQLite to the engine behind db. The
// checks are written in the SQL both engines share (IS DISTINCT FROM,
// aliased subqueries, CAST), so only three things differ: PostgreSQL
// numbers its placeholders ($1, …, where SQLite takes ? and ?N), has no
// json_extract (payload_json::jsonb #>> '{a,b}' reads the same text), and
// calls SQLite's rowid row_id.
func inspect(db *sql.DB, query string) string {
	if _, pg := db.Driver().(*stdlib.Driver); !pg {
		return query
	}
	query = jsonExtract.ReplaceAllStringFunc(query, func(m string) string {
		p := jsonExtract.FindStringSubmatch(m)
		return "(" + p[1] + "::jsonb #>> '{" + strings.ReplaceAll(p[2], ".", ",") + "}')"
	})
	query = rowid.ReplaceAllString(query, "${1}row_id")
	var b strings.Builder
	n := 0
	for i := 0; i < len(query); i++ {
		if query[i] != '?' {
			b.WriteByte(query[i])
			continue
		}
		j := i + 1
		for j < len(query) && query[j] >= '0' && query[j] <= '9' {
			j++
		}
		if j == i+1 {
			n++
			b.WriteString("$" + strconv.Itoa(n))
		} else {
			b.WriteString("$" + query[i+1:j])
		}
		i = j - 1
	}
	return b.String()
}

var (
	jsonExtract = regexp.MustCompile(`json_extract\((\w+), '\$\.([\w.]+)'\)`)
	rowid       = regexp.MustCompile(`(^|[^\w])rowid\b`)
)

// TestInspectAdaptsQueriesToPostgres pins the rewriting the checks rely on.
func TestInspectAdaptsQueriesToPostgres(t *testing.T) {
	pg := stdlib.OpenDB(pgx.ConnConfig{})
	defer pg.Close()
	for _, c := range []struct{ in, want string }{
		{`SELECT count(*) FROM tasks WHERE id = ? AND version = ?`, `SELECT count(*) FROM tasks WHERE id = $1 AND version = $2`},
		{`WHERE type = ?1 AND (?3 = 0 OR CAST(json_extract(payload_json, '$.version') AS INTEGER) = ?3)`,
			`WHERE type = $1 AND ($3 = 0 OR CAST((payload_json::jsonb #>> '{version}') AS INTEGER) = $3)`},
		{`coalesce(json_extract(payload_json, '$.handoff.task_id'), x)`, `coalesce((payload_json::jsonb #>> '{handoff,task_id}'), x)`},
		{`SELECT rowid, e.rowid FROM events e ORDER BY rowid`, `SELECT row_id, e.row_id FROM events e ORDER BY row_id`},
	} {
		if got := inspect(pg, c.in); got != c.want {
			t.Errorf("inspect(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}
