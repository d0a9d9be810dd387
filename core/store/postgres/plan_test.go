package postgres

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestHeadIsReadThroughTheIndexOnASmallAnalysedJournal checks that the
// head of a journal with few workspaces, once the server has analysed it,
// is still read through the primary key: a sequential scan would lock the
// whole table for SERIALIZABLE's conflict checks, and writers of different
// workspaces would fail each other.
func TestHeadIsReadThroughTheIndexOnASmallAnalysedJournal(t *testing.T) {
	e, err := Open(context.Background(), freshDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		id := "ws_" + strconv.Itoa(i)
		if err := e.Write(ctx, func(tx store.Tx) error {
			return tx.CreateWorkspace(ctx, store.NewWorkspace{ID: id, EpochID: "epoch_" + id, RootPath: "/" + id,
				Name: id, RepositoryKey: "local-path:" + id, CreatedAt: "2026-01-01T00:00:00.000Z"})
		}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.pool.ExecContext(ctx, "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	rows, err := e.pool.QueryContext(ctx, `EXPLAIN SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces
WHERE id = 'ws_1' FOR UPDATE`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if text := strings.Join(plan, "\n"); strings.Contains(text, "Seq Scan") || !strings.Contains(text, "workspaces_pkey") {
		t.Fatalf("the head is read with\n%s\nwant an index scan of workspaces_pkey", text)
	}
}
