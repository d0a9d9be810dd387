package store_test

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// pgStore opens a store on url with the test clock and observer.
func pgStore(t *testing.T, url string, readOnly bool) *store.Store {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: url, Observe: fixedObserve, ReadOnly: readOnly})
	if err != nil {
		t.Fatalf("open %s: %v", place.RedactPostgres(url), err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// withPassword puts a password into url's userinfo (the test server trusts
// local connections, so it is carried but never checked).
func withPassword(t *testing.T, raw, password string) string {
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword(u.User.Username(), password)
	return u.String()
}

func TestPostgresReadersCreateNothingAndTheFirstWriterCreatesTheSchema(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	db := pgtest.FreshDatabase(t)
	for _, opts := range []backend.Options{{Path: db, ReadOnly: true}, {Path: db, Inspect: true}} {
		if _, err := backend.Open(context.Background(), opts); !errors.Is(err, backend.ErrNoPostgresJournal) {
			t.Fatalf("read-only open of an empty database: %v, want ErrNoPostgresJournal", err)
		}
	}
	pgStore(t, db, false)
	ro := pgStore(t, db, true)
	if old, err := ro.NeedsMigration(context.Background()); err != nil || old {
		t.Fatalf("NeedsMigration = %v, %v; want false", old, err)
	}
	if v, err := ro.SchemaVersion(context.Background()); err != nil || v != 1 {
		t.Fatalf("SchemaVersion = %d, %v; want collab.schema_version 1", v, err)
	}
}

func TestPostgresPathAndLocalFolderHoldNoPassword(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	const password = "pw-never-shown-91"
	db := withPassword(t, pgtest.FreshDatabase(t), password)
	st := pgStore(t, db, false)
	if strings.Contains(st.Path(), password) || !strings.HasPrefix(st.Path(), "postgres://") {
		t.Fatalf("Path() = %q", st.Path())
	}
	b, err := place.BesideDatabase(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(b.Dir()) != filepath.Join(data, "agenttool", "postgres") || strings.Contains(b.Dir(), password) {
		t.Fatalf("local folder %s", b.Dir())
	}
	fi, err := os.Stat(b.Dir())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("local folder not created 0700: %v %v", err, fi)
	}
	// The setting itself and the shown URL name the same folder.
	if raw, _ := place.BesideDatabase(db); raw.Dir() != b.Dir() {
		t.Fatalf("the setting names %s, the shown URL %s", raw.Dir(), b.Dir())
	}
}

func TestPostgresOpenErrorsHoldNoPassword(t *testing.T) {
	const password = "pw-never-shown-92"
	for _, db := range []string{
		"postgres://nobody:" + password + "@127.0.0.1:1/none?connect_timeout=2",
		"postgres://nobody:" + password + "@[::1/none",
		"postgres://nobody@127.0.0.1:1/none?password=" + password + "&connect_timeout=2",
	} {
		_, err := backend.Open(context.Background(), backend.Options{Path: db})
		if err == nil {
			t.Fatalf("opened %s", place.RedactPostgres(db))
		}
		if strings.Contains(err.Error(), password) {
			t.Fatalf("the error holds the password: %v", err)
		}
	}
}

func TestPostgresChangeSignalsSeeAnotherConnectionsCommit(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	db := pgtest.FreshDatabase(t)
	writer := pgStore(t, db, false)
	reader := pgStore(t, db, true)
	ctx := context.Background()
	probe, err := reader.NewChangeProbe()
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	watcher, err := reader.Watch(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer watcher.Close()
	for i, root := range []string{"/repos/a", "/repos/b"} {
		p0, err := probe.Version(ctx)
		if err != nil {
			t.Fatal(err)
		}
		w0, err := watcher.Version(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := writer.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: root, Actor: "alice"}); err != nil {
			t.Fatal(err)
		}
		if p1, err := probe.Version(ctx); err != nil || p1 == p0 {
			t.Fatalf("commit %d: the probe did not change (%d, %v)", i, p1, err)
		}
		if w1, err := watcher.Version(ctx); err != nil || w1 == w0 {
			t.Fatalf("commit %d: the watcher did not change (%d, %v)", i, w1, err)
		}
	}
}

func TestPostgresQuickCheckNamesAMissingTable(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	db := pgtest.FreshDatabase(t)
	st := pgStore(t, db, false)
	ctx := context.Background()
	if problems, err := st.QuickCheck(ctx); err != nil || len(problems) != 0 {
		t.Fatalf("a fresh journal: %v, %v", problems, err)
	}
	raw := openRaw(t, db)
	if _, err := raw.ExecContext(ctx, "DROP TABLE collab.task_reviews"); err != nil {
		t.Fatal(err)
	}
	problems, err := st.QuickCheck(ctx)
	if err != nil || len(problems) != 1 || !strings.Contains(problems[0], "task_reviews") {
		t.Fatalf("after dropping task_reviews: %v, %v", problems, err)
	}
}

func openRaw(t *testing.T, db string) *sql.DB {
	t.Helper()
	conn, err := sql.Open("pgx", db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
