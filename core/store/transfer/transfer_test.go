package transfer

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store/postgres"
	"github.com/agenttool/collab/core/store/sqlite"
	"github.com/agenttool/collab/core/store/storetest"
)

// TestSQLiteToSQLiteKeepsEveryByteAndRowOrder copies the newest fixture
// into a new file: every table, read by rowid, is the same dump.
func TestSQLiteToSQLiteKeepsEveryByteAndRowOrder(t *testing.T) {
	ctx := context.Background()
	for _, fixture := range []string{fixtureV040, fixtureUnicode} {
		t.Run(filepath.Base(filepath.Dir(fixture)), func(t *testing.T) {
			src := copyFixture(t, fixture)
			dst := filepath.Join(t.TempDir(), "copy.sqlite")
			sum, err := Copy(ctx, Options{From: src, To: dst})
			if err != nil {
				t.Fatal(err)
			}
			want := dumpSQLite(t, src, true)
			if got := dumpSQLite(t, dst, true); got != want {
				t.Fatalf("the copy's rows differ from the source's:\n got %s\nwant %s", got, want)
			}
			if sum.Rows != int64(rowCount(t, want)) || sum.Rows == 0 {
				t.Fatalf("summary counts %d rows, the source holds %d", sum.Rows, rowCount(t, want))
			}
			verifySQLite(t, dst, sum.Chains)
		})
	}
}

// TestRoundTripThroughPostgres copies the newest fixture (and the edge-text
// one) to PostgreSQL and back: the final file holds the source's rows byte
// for byte, the PostgreSQL journal holds them in the same row order, and
// every chain verifies with each engine's own verifier.
func TestRoundTripThroughPostgres(t *testing.T) {
	ctx := context.Background()
	for _, fixture := range []string{fixtureV040, fixtureUnicode} {
		t.Run(filepath.Base(filepath.Dir(fixture)), func(t *testing.T) {
			url := freshDatabase(t)
			src := copyFixture(t, fixture)
			there, err := Copy(ctx, Options{From: src, To: url})
			if err != nil {
				t.Fatalf("to PostgreSQL: %v", err)
			}
			want := dumpSQLite(t, src, false)
			if got := dumpPostgres(t, url); got != want {
				t.Fatalf("PostgreSQL's rows differ from the source's:\n got %s\nwant %s", got, want)
			}
			verifyPostgres(t, url, there.Chains)
			back := filepath.Join(t.TempDir(), "back.sqlite")
			again, err := Copy(ctx, Options{From: url, To: back})
			if err != nil {
				t.Fatalf("back to SQLite: %v", err)
			}
			if got := dumpSQLite(t, back, false); got != want {
				t.Fatalf("the round trip's rows differ from the source's:\n got %s\nwant %s", got, want)
			}
			if again.Rows != there.Rows || again.Events != there.Events || len(again.Chains) != len(there.Chains) {
				t.Fatalf("the two legs moved different journals: %+v vs %+v", there, again)
			}
			verifySQLite(t, back, again.Chains)
		})
	}
}

// TestRefusesNonEmptyTarget copies into targets that already hold a
// journal: refused with ErrTargetNotEmpty, and the target is unchanged.
func TestRefusesNonEmptyTarget(t *testing.T) {
	ctx := context.Background()
	src := copyFixture(t, fixtureV040)
	other := copyFixture(t, fixtureUnicode)
	t.Run("sqlite", func(t *testing.T) {
		dst := copyFixture(t, fixtureUnicode)
		before := readFile(t, dst)
		_, err := Copy(ctx, Options{From: src, To: dst})
		if !errors.Is(err, ErrTargetNotEmpty) {
			t.Fatalf("got %v, want ErrTargetNotEmpty", err)
		}
		if !bytes.Equal(readFile(t, dst), before) {
			t.Fatal("the refused target file changed")
		}
		if _, err := os.Stat(dst + "-wal"); err == nil {
			t.Fatal("the refused copy left a -wal beside the target")
		}
	})
	t.Run("postgres", func(t *testing.T) {
		url := freshDatabase(t)
		if _, err := Copy(ctx, Options{From: other, To: url}); err != nil {
			t.Fatal(err)
		}
		before := dumpPostgres(t, url)
		_, err := Copy(ctx, Options{From: src, To: url})
		if !errors.Is(err, ErrTargetNotEmpty) {
			t.Fatalf("got %v, want ErrTargetNotEmpty", err)
		}
		if got := dumpPostgres(t, url); got != before {
			t.Fatal("the refused PostgreSQL target changed")
		}
	})
}

// TestReplaceSwapsTheWholeJournal copies over a non-empty target with
// Replace: afterwards it holds exactly the source's rows.
func TestReplaceSwapsTheWholeJournal(t *testing.T) {
	ctx := context.Background()
	src := copyFixture(t, fixtureV040)
	want := dumpSQLite(t, src, false)
	t.Run("sqlite", func(t *testing.T) {
		dst := copyFixture(t, fixtureUnicode)
		sum, err := Copy(ctx, Options{From: src, To: dst, Replace: true})
		if err != nil {
			t.Fatal(err)
		}
		if !sum.Replaced {
			t.Fatal("summary does not say the target's journal was replaced")
		}
		if got := dumpSQLite(t, dst, false); got != want {
			t.Fatalf("the replaced target differs from the source:\n got %s\nwant %s", got, want)
		}
		verifySQLite(t, dst, sum.Chains)
	})
	t.Run("postgres", func(t *testing.T) {
		url := freshDatabase(t)
		if _, err := Copy(ctx, Options{From: copyFixture(t, fixtureUnicode), To: url}); err != nil {
			t.Fatal(err)
		}
		sum, err := Copy(ctx, Options{From: src, To: url, Replace: true})
		if err != nil {
			t.Fatal(err)
		}
		if got := dumpPostgres(t, url); got != want || !sum.Replaced {
			t.Fatalf("the replaced target differs from the source (replaced=%v):\n got %s\nwant %s", sum.Replaced, got, want)
		}
		verifyPostgres(t, url, sum.Chains)
	})
}

// TestDamagedSourceIsRefusedAndNothingWritten alters one stored payload:
// the copy names the broken workspace, creates no target file and writes
// no row to a PostgreSQL target (even with Replace).
func TestDamagedSourceIsRefusedAndNothingWritten(t *testing.T) {
	ctx := context.Background()
	src := copyFixture(t, fixtureV040)
	db, err := sql.Open("sqlite", "file:"+src)
	if err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`UPDATE events SET payload_json = replace(payload_json, '"', ' "') WHERE sequence = 3`)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		t.Fatal("the tamper changed nothing")
	}
	db.Close()
	check := func(t *testing.T, err error) {
		var ce *ChainError
		if !errors.As(err, &ce) || ce.Side != "source" || ce.WorkspaceID == "" {
			t.Fatalf("got %v, want a source ChainError", err)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		dst := filepath.Join(t.TempDir(), "copy.sqlite")
		_, err := Copy(ctx, Options{From: src, To: dst})
		check(t, err)
		if entries, _ := os.ReadDir(filepath.Dir(dst)); len(entries) != 0 {
			t.Fatalf("the refused copy left %d file(s) behind", len(entries))
		}
	})
	t.Run("postgres", func(t *testing.T) {
		url := freshDatabase(t)
		if _, err := Copy(ctx, Options{From: copyFixture(t, fixtureUnicode), To: url}); err != nil {
			t.Fatal(err)
		}
		before := dumpPostgres(t, url)
		_, err := Copy(ctx, Options{From: src, To: url, Replace: true})
		check(t, err)
		if dumpPostgres(t, url) != before {
			t.Fatal("the refused copy changed the PostgreSQL target")
		}
	})
}

// TestFailureAfterWritingRollsBack makes the target's own check fail after
// every row was written (a target row that the source does not hold,
// inserted through a trigger): the transaction rolls back and a target
// file the copy created is removed.
func TestFailureAfterWritingRollsBack(t *testing.T) {
	ctx := context.Background()
	url := freshDatabase(t)
	e, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Pool().ExecContext(ctx, `CREATE FUNCTION collab.sabotage() RETURNS trigger AS $$
BEGIN NEW.name := NEW.name || '!'; RETURN NEW; END $$ LANGUAGE plpgsql;
CREATE TRIGGER sabotage BEFORE INSERT ON collab.workspaces FOR EACH ROW EXECUTE FUNCTION collab.sabotage()`)
	e.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Copy(ctx, Options{From: copyFixture(t, fixtureV040), To: url})
	if err == nil || !strings.Contains(err.Error(), "workspaces does not hold the source's rows") {
		t.Fatalf("got %v, want the byte-for-byte check to refuse the changed workspaces", err)
	}
	if got := dumpPostgres(t, url); rowCount(t, got) != 0 {
		t.Fatalf("the failed copy left %d rows in the target", rowCount(t, got))
	}
}

// TestRefusesSameDatabase names one database twice, directly and through
// a symlink.
func TestRefusesSameDatabase(t *testing.T) {
	ctx := context.Background()
	src := copyFixture(t, fixtureV040)
	link := filepath.Join(t.TempDir(), "link.sqlite")
	if err := os.Symlink(src, link); err != nil {
		t.Fatal(err)
	}
	for _, to := range []string{src, link} {
		if _, err := Copy(ctx, Options{From: src, To: to, Replace: true}); !errors.Is(err, ErrSameDatabase) {
			t.Fatalf("copy to %s: got %v, want ErrSameDatabase", to, err)
		}
	}
	if !same(mustLocation(t, "postgres://a:pw1@db.example:5432/collab"), mustLocation(t, "postgresql://b@db.example/collab")) {
		t.Fatal("two URLs of one server and database are not seen as the same database")
	}
	if same(mustLocation(t, "postgres://db.example/one"), mustLocation(t, "postgres://db.example/two")) {
		t.Fatal("two databases of one server are seen as the same")
	}
}

// TestRefusesOlderSQLiteSource leaves a v0.1 file as it is and says how
// to upgrade it.
func TestRefusesOlderSQLiteSource(t *testing.T) {
	src := copyFixture(t, fixtureV010)
	before := readFile(t, src)
	dst := filepath.Join(t.TempDir(), "copy.sqlite")
	_, err := Copy(context.Background(), Options{From: src, To: dst})
	if !errors.Is(err, ErrOlderSchema) || !strings.Contains(err.Error(), "open it once with this collab") {
		t.Fatalf("got %v, want ErrOlderSchema telling how to upgrade", err)
	}
	if !bytes.Equal(readFile(t, src), before) {
		t.Fatal("the refused source changed")
	}
	if _, err := os.Stat(dst); err == nil {
		t.Fatal("the refused copy created the target")
	}
}

// TestPasswordsNeverShown connects with a password to a port where no
// server listens: neither the error nor the locations hold the password.
func TestPasswordsNeverShown(t *testing.T) {
	const secret = "s3cret-Pw-9"
	for _, url := range []string{
		"postgres://collab:" + secret + "@127.0.0.1:1/collab?connect_timeout=5",
		"postgresql://collab@127.0.0.1:1/collab?password=" + secret + "&connect_timeout=5",
	} {
		l := mustLocation(t, url)
		if strings.Contains(l.String(), secret) {
			t.Fatalf("location shown as %s", l)
		}
		_, err := Copy(context.Background(), Options{From: url, To: filepath.Join(t.TempDir(), "x.sqlite")})
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Fatalf("error shows the password (or there is none): %v", err)
		}
	}
}

// TestParseLocation reads each kind of end and refuses what is neither.
func TestParseLocation(t *testing.T) {
	abs, err := filepath.Abs("collab.sqlite")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		in, shown string
		postgres  bool
		err       string
	}{
		{"collab.sqlite", abs, false, ""},
		{"postgres://u:pw@h:5432/db?sslmode=require", "postgres://u@h:5432/db?sslmode=require", true, ""},
		{"POSTGRESQL://h/db?host=/run/pg&password=pw", "postgresql://h/db?host=/run/pg", true, ""},
		{"postgres://h/db?host=/run/pg", "postgres://h/db?host=/run/pg", true, ""},
		{"host=db dbname=collab", "", false, "postgres:// URL"},
		{"  ", "", false, "empty"},
	}
	for _, tc := range cases {
		l, err := ParseLocation(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: got %v, want an error about %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || l.String() != tc.shown || l.Postgres() != tc.postgres {
			t.Errorf("%q: got %q postgres=%v err=%v, want %q postgres=%v", tc.in, l, l.Postgres(), err, tc.shown, tc.postgres)
		}
	}
}

func mustLocation(t *testing.T, s string) Location {
	t.Helper()
	l, err := ParseLocation(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// verifySQLite checks every chain with the SQLite engine's own verifier.
func verifySQLite(t testing.TB, path string, chains []Chain) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), sqlite.Options{Path: path, Inspect: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, c := range chains {
		ok, found, err := storetest.VerifyChain(context.Background(), db, c.WorkspaceID)
		if err != nil || !ok || !found {
			t.Fatalf("workspace %s: ok=%v found=%v err=%v", c.WorkspaceID, ok, found, err)
		}
	}
	if len(chains) == 0 {
		t.Fatal("no chain to verify")
	}
}

// verifyPostgres checks every chain with the PostgreSQL engine's verifier.
func verifyPostgres(t testing.TB, url string, chains []Chain) {
	t.Helper()
	e, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, c := range chains {
		ok, found, err := storetest.VerifyChain(context.Background(), e, c.WorkspaceID)
		if err != nil || !ok || !found {
			t.Fatalf("workspace %s: ok=%v found=%v err=%v", c.WorkspaceID, ok, found, err)
		}
	}
	if len(chains) == 0 {
		t.Fatal("no chain to verify")
	}
}
