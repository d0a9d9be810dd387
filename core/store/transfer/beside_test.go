package transfer

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// withReceipts writes a SQLite journal in which bob was told of a report
// addressed to him and marked it handled, and alice's host was recorded:
// rows in both tables kept beside the journal.
func withReceipts(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "collab.sqlite")
	st, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	root := filepath.Join(dir, "repo")
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	start := func(actor string) store.Credential {
		ss, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: actor})
		if err != nil {
			t.Fatal(err)
		}
		return store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
	}
	alice, bob := start("alice"), start("bob")
	a, err := st.AppendReport(ctx, alice, store.AppendReportInput{IdempotencyKey: "k1", Kind: "proposal",
		Body: "take the parser", ToSessionID: &bob.SessionID})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := a.Value()
	sub := store.Subject{Kind: "report", ID: r.Report.ID}
	if _, err := st.RecordAnnouncement(ctx, bob, "hook", []store.Subject{sub}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.MarkDelivery(ctx, bob, sub, store.MarkHandled, nil); err != nil {
		t.Fatal(err)
	}
	if err := st.RecordSessionHost(ctx, alice, store.SessionHost{Kind: store.HostStdio, Client: "claude-code",
		ClientVersion: "2.1", Machine: "dev-box", PID: 4242, ProcessStart: 1 << 40, BootID: "boot-1"}); err != nil {
		t.Fatal(err)
	}
	return path
}

// dumpBeside renders the rows of the tables kept beside the journal, in
// primary-key order, read with the driver directly; query is "" on a side
// that has no such table.
func dumpBeside(t *testing.T, db *sql.DB, prefix string) string {
	t.Helper()
	var b strings.Builder
	for _, tb := range besideTables {
		rows, err := db.Query("SELECT " + tb.columnList() + " FROM " + prefix + tb.name + " ORDER BY " + strings.Join(tb.key, ", "))
		if err != nil {
			t.Fatalf("dump %s: %v", tb.name, err)
		}
		dumpRows(t, &b, tb.name, rows)
	}
	return b.String()
}

func sqliteDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// Receipts and session hosts survive a copy into a fresh SQLite file, a
// replacing copy, and a round trip through PostgreSQL, byte for byte.
func TestCopyCarriesTheTablesBesideTheJournal(t *testing.T) {
	ctx := context.Background()
	src := withReceipts(t)
	want := dumpBeside(t, sqliteDB(t, src), "")
	if rowCount(t, want) != 3 {
		t.Fatalf("the source should hold two receipts and one host:\n%s", want)
	}
	dst := filepath.Join(t.TempDir(), "copy.sqlite")
	sum, err := Copy(ctx, Options{From: src, To: dst})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpBeside(t, sqliteDB(t, dst), ""); got != want {
		t.Fatalf("the copy's receipts and hosts differ:\n got %s\nwant %s", got, want)
	}
	if _, err := Copy(ctx, Options{From: src, To: dst, Replace: true}); err != nil {
		t.Fatalf("a replacing copy over carried receipts: %v", err)
	}
	if got := dumpBeside(t, sqliteDB(t, dst), ""); got != want {
		t.Fatalf("after replacing:\n got %s\nwant %s", got, want)
	}
	counted := map[string]int64{}
	for _, tc := range sum.Tables {
		counted[tc.Table] = tc.Rows
	}
	if counted["delivery_receipts"] != 2 || counted["session_hosts"] != 1 {
		t.Fatalf("summary tables %v", sum.Tables)
	}

	url := freshDatabase(t)
	if _, err := Copy(ctx, Options{From: src, To: url}); err != nil {
		t.Fatalf("to PostgreSQL: %v", err)
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	pg := stdlib.OpenDB(*cfg)
	defer pg.Close()
	if got := dumpBeside(t, pg, "collab."); got != want {
		t.Fatalf("PostgreSQL's receipts and hosts differ:\n got %s\nwant %s", got, want)
	}
	back := filepath.Join(t.TempDir(), "back.sqlite")
	if _, err := Copy(ctx, Options{From: url, To: back}); err != nil {
		t.Fatalf("back to SQLite: %v", err)
	}
	if got := dumpBeside(t, sqliteDB(t, back), ""); got != want {
		t.Fatalf("after the round trip:\n got %s\nwant %s", got, want)
	}
}
