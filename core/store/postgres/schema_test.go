package postgres

import (
	"context"
	"database/sql"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// TestOpenCreatesTheSchemaOnce checks that processes opening an empty
// database at the same moment create the schema once and all succeed, and
// that a later open finds it.
func TestOpenCreatesTheSchemaOnce(t *testing.T) {
	url := freshDatabase(t)
	const openers = 6
	var wg sync.WaitGroup
	errs := make([]error, openers)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			e, err := Open(context.Background(), url)
			if err == nil {
				err = e.Close()
			}
			errs[i] = err
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("opener %d: %v", i, err)
		}
	}
	db := rawDB(t, url)
	var versions int
	if err := db.QueryRow("SELECT count(*) FROM collab.schema_version").Scan(&versions); err != nil {
		t.Fatal(err)
	}
	if versions != 1 {
		t.Fatalf("schema_version holds %d rows, want 1", versions)
	}
	e, err := Open(context.Background(), url)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	e.Close()
}

// TestOpenRefusesSchemasItCannotRead checks that Open refuses a newer
// schema version and a "collab" schema that collab did not make, and
// leaves both as they were.
func TestOpenRefusesSchemasItCannotRead(t *testing.T) {
	for _, c := range []struct {
		name, setup, want string
	}{
		{"newer version", "", "newer than this binary"},
		{"foreign schema", "CREATE SCHEMA collab; CREATE TABLE collab.other (x int)", "collab did not make"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := freshDatabase(t)
			db := rawDB(t, url)
			if c.setup == "" {
				e, err := Open(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				e.Close()
				c.setup = "INSERT INTO collab.schema_version (version, applied_at) VALUES (99, 'later')"
			}
			if _, err := db.Exec(c.setup); err != nil {
				t.Fatal(err)
			}
			_, err := Open(context.Background(), url)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Open returned %v, want an error saying %q", err, c.want)
			}
			var tables int
			if err := db.QueryRow("SELECT count(*) FROM pg_tables WHERE schemaname = 'collab'").Scan(&tables); err != nil {
				t.Fatal(err)
			}
			if c.name == "foreign schema" && tables != 1 {
				t.Fatalf("the refused schema now has %d tables, want its 1", tables)
			}
		})
	}
}

func rawDB(t *testing.T, url string) *sql.DB {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	db := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { db.Close() })
	return db
}

// TestOpenRefusesASchemaOfAnotherShape changes a made schema the way a
// hand edit or a half-applied change would, and checks that Open names the
// difference and leaves the schema as it found it.
func TestOpenRefusesASchemaOfAnotherShape(t *testing.T) {
	for _, c := range []struct {
		name, change, want string
	}{
		{"dropped column", "ALTER TABLE collab.reports DROP COLUMN limits", "table reports has columns"},
		{"added column", "ALTER TABLE collab.tasks ADD COLUMN extra text", "table tasks has columns"},
		{"dropped table", "DROP TABLE collab.session_cursor_resets", "table session_cursor_resets is missing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			url := freshDatabase(t)
			e, err := Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			e.Close()
			db := rawDB(t, url)
			if _, err := db.Exec(c.change); err != nil {
				t.Fatal(err)
			}
			before := columnsOf(t, db)
			_, err = Open(context.Background(), url)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Open returned %v, want an error saying %q", err, c.want)
			}
			if after := columnsOf(t, db); after != before {
				t.Fatalf("the refused schema changed:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
}

func columnsOf(t *testing.T, db *sql.DB) string {
	t.Helper()
	var s string
	if err := db.QueryRow(`SELECT coalesce(string_agg(table_name || '.' || column_name, ',' ORDER BY table_name, ordinal_position), '')
FROM information_schema.columns WHERE table_schema = 'collab'`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}
