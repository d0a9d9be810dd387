package sqlite

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEachCommitIsWholeInTheFileWhenItReturns commits transactions of one
// row, of many pages, and of more pages than the cache holds (so that part
// of it goes out before the commit), through a write connection of the store,
// and after each commit returns copies the database and its -wal, without
// the shared index, and opens the copy: SQLite then rebuilds the index
// from the -wal alone, keeping only whole commits whose checksums hold, so
// the copy holds every committed row only if the commit was entirely in the
// file when it returned. That is what a process killed at that moment
// leaves, for synchronous normal and full alike.
func TestEachCommitIsWholeInTheFileWhenItReturns(t *testing.T) {
	for _, sync := range []string{"normal", "full"} {
		t.Run(sync, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "db.sqlite")
			w, err := openPool(path, "immediate", sync, readWrite, busyTimeout, 1)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			for _, q := range []string{`PRAGMA journal_mode = WAL`, `PRAGMA cache_size = 50`,
				`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`} {
				if _, err := w.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			rows := 0
			for i, n := range []int{1, 1, 60, 1, 3000, 2, 1, 400, 1} {
				tx, err := w.Begin()
				if err != nil {
					t.Fatal(err)
				}
				for range n {
					v := fmt.Sprintf("%d-%06d-%s", i, rows, strings.Repeat("x", 900))
					if _, err := tx.Exec(`INSERT INTO t (id, v) VALUES (?, ?)`, rows, v); err != nil {
						t.Fatal(err)
					}
					rows++
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				if got := rowsInCopy(t, dir, path, i); got != rows {
					t.Fatalf("after commit %d (%d rows), a copy of the files holds %d rows", i, rows, got)
				}
			}
		})
	}
}

// rowsInCopy copies path and its -wal into a new directory and counts the
// rows of t there, after checking the copy's integrity.
func rowsInCopy(t *testing.T, dir, path string, n int) int {
	t.Helper()
	cp := filepath.Join(dir, fmt.Sprintf("copy-%d", n))
	if err := os.Mkdir(cp, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cp, "db.sqlite"+suffix), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sql.Open("sqlite", filepath.Join(cp, "db.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow(`PRAGMA integrity_check`).Scan(&check); err != nil || check != "ok" {
		t.Fatalf("copy after commit %d: integrity %q, %v", n, check, err)
	}
	var count int
	if err := db.QueryRow(`SELECT count(*) FROM t`).Scan(&count); err != nil {
		t.Fatal(err)
	}
	return count
}
