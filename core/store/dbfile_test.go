package store_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqlite"
)

// currentFixture is a cleanly closed v0.4 database with two workspaces.
var currentFixture = filepath.Join("testdata", "fixtures", "versions", "v0.4.0", "collab.sqlite")

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// walWith returns the bytes of a write-ahead log that, replayed over a copy
// of currentFixture, applies stmts. It is made on a private copy whose
// writer is still open, so the log has not been checkpointed away.
func walWith(t *testing.T, stmts ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	db := filepath.Join(dir, "source.sqlite")
	copyFile(t, currentFixture, db, 0o600)
	conn, err := sql.Open("sqlite", "file:"+db+"?_pragma=wal_autocheckpoint(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	for _, q := range append([]string{"PRAGMA journal_mode = WAL"}, stmts...) {
		if _, err := conn.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return readFile(t, db+"-wal")
}

func requireCode(t *testing.T, err error, code string) {
	t.Helper()
	if ce, ok := collaberr.As(err); !ok || ce.Code != code {
		t.Fatalf("want refusal %s, got %v", code, err)
	}
}

func TestSidecarsNotPrivateToThisUserAreRefusedBeforeSQLiteReplaysThem(t *testing.T) {
	planted := walWith(t, "CREATE TABLE planted (x)", "INSERT INTO planted VALUES ('from another user')")
	cases := []struct {
		name  string
		plant func(t *testing.T, db string)
	}{
		{"a -wal hard-linked from elsewhere", func(t *testing.T, db string) {
			other := filepath.Join(filepath.Dir(db), "elsewhere")
			os.WriteFile(other, planted, 0o600)
			if err := os.Link(other, db+"-wal"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a -wal that is a symlink", func(t *testing.T, db string) {
			other := filepath.Join(filepath.Dir(db), "elsewhere")
			os.WriteFile(other, planted, 0o600)
			if err := os.Symlink(other, db+"-wal"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a -journal that is a symlink", func(t *testing.T, db string) {
			if err := os.Symlink("/dev/null", db+"-journal"); err != nil {
				t.Fatal(err)
			}
		}},
		{"a -shm that is a directory", func(t *testing.T, db string) {
			if err := os.Mkdir(db+"-shm", 0o700); err != nil {
				t.Fatal(err)
			}
		}},
		{"a -wal owned by another user", func(t *testing.T, db string) {
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file to another user")
			}
			os.WriteFile(db+"-wal", planted, 0o666)
			if err := os.Lchown(db+"-wal", 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "collab.sqlite")
			copyFile(t, currentFixture, db, 0o600)
			before := readFile(t, db)
			tc.plant(t, db)
			for _, readOnly := range []bool{false, true} {
				st, err := backend.Open(context.Background(), backend.Options{Path: db, ReadOnly: readOnly})
				if err == nil {
					st.Close()
				}
				requireCode(t, err, "database_sidecar_unsafe")
			}
			if !bytes.Equal(readFile(t, db), before) {
				t.Fatal("the refused open changed the main database file")
			}
		})
	}
}

func TestARefusedOpenNeverCheckpointsTheLogIntoTheMainFile(t *testing.T) {
	// The log is this user's own and well-formed; what it commits makes the
	// file one this server refuses. The main file must not absorb it.
	cases := []struct {
		name, stmt, code string
	}{
		{"foreign application id", "PRAGMA application_id = 7", "database_application_mismatch"},
		{"newer schema version", "PRAGMA user_version = 99", "database_version_too_new"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wal := walWith(t, tc.stmt)
			db := filepath.Join(t.TempDir(), "collab.sqlite")
			copyFile(t, currentFixture, db, 0o600)
			if err := os.WriteFile(db+"-wal", wal, 0o600); err != nil {
				t.Fatal(err)
			}
			before := readFile(t, db)
			st, err := backend.Open(context.Background(), backend.Options{Path: db})
			if err == nil {
				st.Close()
			}
			requireCode(t, err, tc.code)
			if !bytes.Equal(readFile(t, db), before) {
				t.Fatal("the refused open checkpointed the log into the main file")
			}
			if !bytes.Equal(readFile(t, db+"-wal"), wal) {
				t.Fatal("the refused open changed the log")
			}
		})
	}
}

// corruptLastPage overwrites the last page of db with garbage.
func corruptLastPage(t *testing.T, db string) {
	t.Helper()
	const pageSize = 4096
	b := readFile(t, db)
	if len(b)%pageSize != 0 || len(b) < 2*pageSize {
		t.Fatalf("unexpected file size %d", len(b))
	}
	for i := len(b) - pageSize; i < len(b); i++ {
		b[i] = byte(i*7 + 3)
	}
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestADamagedPageIsReportedAsCorruptionNotAsForeignKeys(t *testing.T) {
	db := filepath.Join(t.TempDir(), "collab.sqlite")
	copyFile(t, currentFixture, db, 0o600)
	corruptLastPage(t, db)
	before := readFile(t, db)
	st, err := backend.Open(context.Background(), backend.Options{Path: db})
	if err == nil {
		st.Close()
	}
	requireCode(t, err, "database_corrupt")
	if !bytes.Equal(readFile(t, db), before) {
		t.Fatal("the refused open changed the damaged file")
	}

	ro, err := backend.Open(context.Background(), backend.Options{Path: db, ReadOnly: true})
	if err != nil {
		t.Fatalf("a damaged file should still open for inspection: %v", err)
	}
	defer ro.Close()
	problems, err := ro.QuickCheck(context.Background())
	if err != nil || len(problems) == 0 {
		t.Fatalf("quick check found %v (%v), want damage", problems, err)
	}
}

func TestQuickCheckFindsNothingInASoundFile(t *testing.T) {
	db := filepath.Join(t.TempDir(), "collab.sqlite")
	copyFile(t, currentFixture, db, 0o600)
	st, err := backend.Open(context.Background(), backend.Options{Path: db, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if problems, err := st.QuickCheck(context.Background()); err != nil || len(problems) != 0 {
		t.Fatalf("quick check of a sound file: %v %v", problems, err)
	}
}

func TestWritesAreRefusedOnceTheFileIsDeletedOrReplaced(t *testing.T) {
	cases := []struct {
		name    string
		replace func(t *testing.T, db string)
	}{
		{"deleted", func(t *testing.T, db string) {
			for _, p := range []string{db, db + "-wal", db + "-shm"} {
				os.Remove(p)
			}
		}},
		{"renamed away", func(t *testing.T, db string) {
			if err := os.Rename(db, db+".moved"); err != nil {
				t.Fatal(err)
			}
		}},
		{"replaced by another database", func(t *testing.T, db string) {
			other := db + ".new"
			copyFile(t, currentFixture, other, 0o600)
			if err := os.Rename(other, db); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, "collab.sqlite")
			st, err := backend.Open(context.Background(), backend.Options{Path: db, Observe: fixedObserve})
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if _, err := st.OpenWorkspace(context.Background(), store.OpenWorkspaceInput{RootPath: dir, Actor: "a"}); err != nil {
				t.Fatal(err)
			}
			tc.replace(t, db)
			_, err = st.OpenWorkspace(context.Background(), store.OpenWorkspaceInput{RootPath: filepath.Join(dir, "b"), Actor: "a"})
			requireCode(t, err, "database_file_replaced")
		})
	}
}

// fixedObserve treats every directory as a plain path, without Git.
func fixedObserve(_ context.Context, root, _ string) (gitstate.Identity, gitstate.Checkpoint, error) {
	return sqlite.PathIdentity(root), gitstate.Checkpoint{}, nil
}

// BenchmarkCheckSameFile measures the identity check every write pays
// twice (before BEGIN and after COMMIT): one stat of the database path.
func BenchmarkCheckSameFile(b *testing.B) {
	st, _ := benchStore(b, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := sqliteDB(st).CheckSameFile(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAReadOnlyStoreSeesLaterWrites: a reader that follows the journal
// (tail -f, the web view, watch) opens read-only and must see what a
// server commits afterwards, even when the file was cleanly closed when it
// opened; only an Inspect store reads the file as it was.
func TestAReadOnlyStoreSeesLaterWrites(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "collab.sqlite")
	w, err := backend.Open(ctx, backend.Options{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	w.Close()
	ro, err := backend.Open(ctx, backend.Options{Path: db, ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	count := func() int {
		var n int
		if err := readPool(ro).QueryRowContext(ctx, "SELECT count(*) FROM workspaces").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count() != 0 {
		t.Fatal("a new file should hold no workspace")
	}
	w, err = backend.Open(ctx, backend.Options{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "a"}); err != nil {
		t.Fatal(err)
	}
	if count() != 1 {
		t.Fatal("the read-only store did not see a workspace written after it opened")
	}
}
