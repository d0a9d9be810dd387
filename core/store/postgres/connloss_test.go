package postgres

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agenttool/collab/core/store"
)

// TestWriteRunsAgainWhenItsConnectionIsEnded ends the backend of a write
// transaction (pg_terminate_backend, as an operator or a failover would)
// after its first statement: Write reconnects, runs fn again, and the
// effect is applied once.
func TestWriteRunsAgainWhenItsConnectionIsEnded(t *testing.T) {
	ctx := context.Background()
	e, err := Open(ctx, freshDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	runs := 0
	err = e.Write(ctx, func(tx store.Tx) error {
		runs++
		if err := tx.CreateWorkspace(ctx, store.NewWorkspace{ID: "ws_lost", EpochID: "epoch", RootPath: "/lost",
			Name: "lost", RepositoryKey: "local-path:/lost", CreatedAt: "2026-01-01T00:00:00.000Z"}); err != nil {
			return err
		}
		if runs == 1 {
			var pid int
			if err := tx.(*Tx).QueryRowContext(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
				return err
			}
			// With a timeout, pg_terminate_backend returns once the backend is gone.
			if _, err := e.pool.ExecContext(ctx, "SELECT pg_terminate_backend($1, 60000)", pid); err != nil {
				t.Fatalf("terminate: %v", err)
			}
			_, err := tx.(*Tx).ExecContext(ctx, "SELECT 1")
			if !connectionLost(err) {
				t.Fatalf("a statement on an ended backend returned %v, which is not a lost connection", err)
			}
			return err
		}
		return nil
	})
	if err != nil || runs != 2 {
		t.Fatalf("Write = %v after %d runs, want success after 2", err, runs)
	}
	var n int
	if err := e.pool.QueryRowContext(ctx, "SELECT count(*) FROM workspaces WHERE id = 'ws_lost'").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d workspaces (%v), want 1", n, err)
	}
}

// TestClassifyNamesLostConnectionsAndPrivileges checks the kinds callers
// see: a lost connection says nothing was written, a refused privilege
// says which object and where the grants are listed.
func TestClassifyNamesLostConnectionsAndPrivileges(t *testing.T) {
	denied := &pgconn.PgError{Code: "42501", Message: "permission denied for table reports"}
	for _, c := range []struct {
		err  error
		kind error
		text string
	}{
		{&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, ErrConnectionLost, "nothing was written"},
		{&pgconn.PgError{Code: "57P03", Message: "the database system is starting up"}, ErrConnectionLost, "starting up"},
		{sql.ErrConnDone, nil, ""},
		{denied, ErrPrivilege, "permission denied for table reports"},
		{&pgconn.PgError{Code: "23505"}, nil, ""},
	} {
		got := classify(c.err)
		if c.kind == nil {
			if got != c.err {
				t.Errorf("classify(%v) = %v, want it unchanged", c.err, got)
			}
			continue
		}
		if !errors.Is(got, c.kind) || !strings.Contains(got.Error(), c.text) || !errors.Is(got, c.err) {
			t.Errorf("classify(%v) = %v, want %v mentioning %q", c.err, got, c.kind, c.text)
		}
	}
}

// TestAWriteRunsAgainOnlyWhenNothingOfItCanBeInTheJournal checks which
// failures Write runs again: serialization failures, deadlocks and
// connections lost before COMMIT do; a COMMIT of unknown outcome never
// does, even when what it wraps would on its own.
func TestAWriteRunsAgainOnlyWhenNothingOfItCanBeInTheJournal(t *testing.T) {
	serialization := &pgconn.PgError{Code: "40001"}
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"serialization failure", serialization, true},
		{"deadlock", &pgconn.PgError{Code: "40P01"}, true},
		{"connection lost before COMMIT", &lostBeforeCommit{cause: io.EOF}, true},
		{"server shutting down", &pgconn.PgError{Code: "57P01"}, true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, false},
		{"unknown COMMIT after a lost connection", commitUnknown(io.ErrUnexpectedEOF), false},
		{"unknown COMMIT wrapping a serialization failure", commitUnknown(serialization), false},
		{"unknown COMMIT wrapping a lost connection before COMMIT", commitUnknown(&lostBeforeCommit{cause: io.EOF}), false},
	} {
		if got := rerunnable(c.err); got != c.want {
			t.Errorf("%s: rerunnable = %v, want %v", c.name, got, c.want)
		}
	}
}
