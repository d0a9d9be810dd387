package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agenttool/collab/core/store"
)

// TestWriteRunsAgainAfterSerializationFailures checks that Write hides a
// serialization failure or a deadlock by running fn again in a new
// transaction (whose effects alone are kept), and returns every other
// error after one run.
func TestWriteRunsAgainAfterSerializationFailures(t *testing.T) {
	e, err := Open(context.Background(), freshDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	for _, c := range []struct {
		name     string
		failWith error
		runs     int
		retried  bool
	}{
		{"serialization failure", &pgconn.PgError{Code: "40001"}, 2, true},
		{"deadlock", fmt.Errorf("claim: %w", &pgconn.PgError{Code: "40P01"}), 2, true},
		{"unique violation", &pgconn.PgError{Code: "23505"}, 1, false},
		{"refusal", errors.New("refused"), 1, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := "ws_" + strings.ReplaceAll(c.name, " ", "_")
			runs := 0
			err := e.Write(ctx, func(tx store.Tx) error {
				runs++
				if err := tx.CreateWorkspace(ctx, store.NewWorkspace{ID: ws, EpochID: "epoch", RootPath: "/" + ws,
					Name: ws, RepositoryKey: "local-path:" + ws, CreatedAt: "2026-01-01T00:00:00.000Z"}); err != nil {
					return err
				}
				if runs == 1 {
					return c.failWith
				}
				return nil
			})
			if runs != c.runs {
				t.Fatalf("fn ran %d times, want %d", runs, c.runs)
			}
			if c.retried && err != nil {
				t.Fatalf("Write returned %v after a retriable failure", err)
			}
			if !c.retried && !errors.Is(err, c.failWith) {
				t.Fatalf("Write returned %v, want %v", err, c.failWith)
			}
			var found bool
			if err := e.Read(ctx, func(tx store.Tx) error {
				_, found, err = tx.Workspace(ctx, ws)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if found != c.retried {
				t.Fatalf("workspace stored = %v, want %v", found, c.retried)
			}
		})
	}
}
