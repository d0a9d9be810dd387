//go:build !collab_nodirect

package sqlite

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// readAll is every value of table t in id order, read in one statement on c.
func readAll(t *testing.T, c *directConn) string {
	t.Helper()
	stmt, err := c.prepare("SELECT v FROM t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer stmt.Close()
	var all strings.Builder
	for {
		row, err := stmt.step()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if !row {
			return all.String()
		}
		all.Write(stmt.columnText(0))
		all.WriteByte('\n')
	}
}

// TestDirectConnectionSeesEachCheckpointedRewrite reads a WAL database on
// a direct connection, lets another connection rewrite every row and copy
// the change into the database file, and reads again on the same
// connection: the second read must see the new rows, not pages the first
// read left behind. It does so for a small file and one of many pages.
func TestDirectConnectionSeesEachCheckpointedRewrite(t *testing.T) {
	for _, rows := range []int{20, 400} {
		t.Run(fmt.Sprintf("rows=%d", rows), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "wal.sqlite")
			w, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			w.SetMaxOpenConns(1)
			fill := func(tag string) string {
				t.Helper()
				var want strings.Builder
				tx, err := w.Begin()
				if err != nil {
					t.Fatal(err)
				}
				for i := range rows {
					v := fmt.Sprintf("%s-%04d-%s", tag, i, strings.Repeat(tag[:1], 900))
					if _, err := tx.Exec(`INSERT INTO t (id, v) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET v = excluded.v`, i, v); err != nil {
						t.Fatal(err)
					}
					want.WriteString(v + "\n")
				}
				if err := tx.Commit(); err != nil {
					t.Fatal(err)
				}
				var busy, logged, moved int
				if err := w.QueryRow(`PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &moved); err != nil || busy != 0 {
					t.Fatalf("checkpoint: busy %d, %v", busy, err)
				}
				return want.String()
			}
			for _, q := range []string{`PRAGMA journal_mode = WAL`, `CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`} {
				if _, err := w.Exec(q); err != nil {
					t.Fatal(err)
				}
			}
			before := fill("old")

			c, err := openDirect(directURI(path, false))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if got := readAll(t, c); got != before {
				t.Fatalf("first read differs from what was written")
			}
			after := fill("new")
			if got := readAll(t, c); got != after {
				t.Fatalf("second read does not see the rewritten rows (stale: %v)", got == before)
			}
		})
	}
}
