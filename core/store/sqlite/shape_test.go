package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

// TestOpenRefusesADamagedSchema damages a current database one way at a
// time, outside collab, and requires Open to refuse it with the code and
// detail that name the damage (and a fresh copy to open).
func TestOpenRefusesADamagedSchema(t *testing.T) {
	cases := []struct {
		name      string
		damage    []string
		code      collaberr.Code
		key, want string
	}{
		{"undamaged", nil, "", "", ""},
		{"a guard trigger dropped", []string{"DROP TRIGGER tasks_v2_update_guard"},
			collaberr.DatabaseSchemaMismatch, "trigger", "tasks_v2_update_guard"},
		{"a guard trigger that no longer guards", []string{"DROP TRIGGER handoffs_v2_insert_guard",
			"CREATE TRIGGER handoffs_v2_insert_guard BEFORE INSERT ON handoffs BEGIN SELECT 1; END"},
			collaberr.DatabaseSchemaMismatch, "trigger", "handoffs_v2_insert_guard"},
		{"a required column renamed", []string{"ALTER TABLE tasks RENAME COLUMN coordination_mode TO mode"},
			collaberr.DatabaseSchemaMismatch, "missing_column", "coordination_mode"},
		{"a required table gone", []string{"DROP TABLE artifacts"},
			collaberr.DatabaseSchemaMismatch, "missing_table", "artifacts"},
		{"a column added to the session table", []string{"ALTER TABLE coordination_sessions ADD COLUMN extra TEXT"},
			collaberr.DatabaseSchemaMismatch, "table", "coordination_sessions"},
		{"a column added to the presence table", []string{"ALTER TABLE sessions ADD COLUMN extra TEXT"},
			collaberr.DatabaseSchemaMismatch, "table", "sessions"},
		{"a migration receipt removed", []string{"DELETE FROM schema_migrations WHERE version = 3"},
			collaberr.DatabaseMigrationReceiptInvalid, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "collab.sqlite")
			db, err := Open(ctx, Options{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			db.Close()
			raw, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			for _, stmt := range c.damage {
				if _, err := raw.ExecContext(ctx, stmt); err != nil {
					t.Fatalf("%s: %v", stmt, err)
				}
			}
			raw.Close()
			db, err = Open(ctx, Options{Path: path})
			if c.code == "" {
				if err != nil {
					t.Fatalf("an undamaged database was refused: %v", err)
				}
				db.Close()
				return
			}
			if err == nil {
				db.Close()
				t.Fatalf("opened a database with %s", c.name)
			}
			ce, ok := collaberr.As(err)
			if !ok || ce.Code != string(c.code) {
				t.Fatalf("refused with %v, want %s", err, c.code)
			}
			if c.key != "" {
				if got, _ := ce.Detail(c.key); got != c.want {
					t.Fatalf("detail %s = %v, want %s (%v)", c.key, got, c.want, err)
				}
			}
		})
	}
}
