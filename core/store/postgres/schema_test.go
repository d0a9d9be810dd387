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
