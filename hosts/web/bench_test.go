package web_test

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/hostguard"
	"github.com/agenttool/collab/hosts/web"
)

// BenchmarkPagesAtScale serves each main page of a workspace holding
// 1,000 tasks and 50,000 events (the target: ≤ 200 ms a page).
// Tasks are created through the store; the rest of the journal is
// appended straight into the file with correct hashes to keep setup short.
func BenchmarkPagesAtScale(b *testing.B) {
	path, ws := scaleDatabase(b, 1000, 50000)
	st := readOnly(b, path)
	// httptest.NewRequest addresses example.com and records no connection.
	hosts, err := hostguard.New("127.0.0.1:0", []string{"example.com"}, nil)
	if err != nil {
		b.Fatal(err)
	}
	srv, err := web.New(context.Background(), web.Options{Store: st, Hosts: hosts})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	// A fresh server reads the journal's event types once (the timeline
	// filter); later pages read only newer events.
	b.Run("/timeline-cold", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			cold, err := web.New(context.Background(), web.Options{Store: st, Hosts: hosts})
			if err != nil {
				b.Fatal(err)
			}
			rec := httptest.NewRecorder()
			cold.ServeHTTP(rec, httptest.NewRequest("GET", "/w/"+ws+"/timeline", nil))
			// Let its background type scan finish outside the timing, so
			// iterations do not compete with each other's scans.
			b.StopTimer()
			time.Sleep(400 * time.Millisecond)
			cold.Close()
			b.StartTimer()
			if rec.Code != http.StatusOK {
				b.Fatalf("%d", rec.Code)
			}
		}
	})
	for _, page := range []string{"/", "/timeline", "/sessions", "/reports", "/decisions", "/conflicts"} {
		b.Run(page, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				rec := httptest.NewRecorder()
				srv.ServeHTTP(rec, httptest.NewRequest("GET", "/w/"+ws+page, nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: %d %s", page, rec.Code, rec.Body.String())
				}
			}
		})
	}
}

func scaleDatabase(b testing.TB, tasks, events int) (string, string) {
	b.Helper()
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "scale.sqlite")
	st, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		b.Fatal(err)
	}
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: b.TempDir(), Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ws := opened.Workspace.ID
	for i := 0; i < tasks; i++ {
		id := fmt.Sprintf("task-%04d", i)
		in := store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: id, TaskID: &id,
			Title: fmt.Sprintf("Task number %d with a realistic title", i), PathScopes: []string{fmt.Sprintf("src/pkg%d/**", i)}}
		if _, err := st.CreateTask(ctx, store.LabelActor("bench"), in); err != nil {
			b.Fatal(err)
		}
	}
	st.Close()
	fill(b, path, ws, events)
	return path, ws
}

// fill appends task.progressed events with correct hashes until the
// journal holds n events.
func fill(b testing.TB, path, ws string, n int) {
	b.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	defer tx.Rollback()
	var epoch, prev string
	var seq int64
	if err := tx.QueryRow("SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?", ws).
		Scan(&epoch, &seq, &prev); err != nil {
		b.Fatal(err)
	}
	insert, err := tx.Prepare(`INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor,
occurred_at, payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)`)
	if err != nil {
		b.Fatal(err)
	}
	var h journal.Hasher
	for seq < int64(n) {
		seq++
		ev := journal.Event{WorkspaceID: ws, EpochID: epoch, Sequence: seq, ID: fmt.Sprintf("event_fill_%d", seq),
			Protocol: journal.ProtocolV2, Type: "task.progressed", EntityID: fmt.Sprintf("task-%04d", seq%1000), Actor: "bench",
			OccurredAt: "2026-01-01T00:00:00.000Z", PayloadJSON: []byte(fmt.Sprintf(`{"message":"step %d done","version":%d}`, seq, seq)),
			PrevHash: prev}
		ev.Hash, _ = h.Hash(&ev)
		if _, err := insert.Exec(ev.WorkspaceID, ev.EpochID, ev.Sequence, ev.ID, ev.Protocol, ev.Type, ev.EntityID, ev.Actor,
			ev.OccurredAt, string(ev.PayloadJSON), ev.PrevHash, ev.Hash); err != nil {
			b.Fatal(err)
		}
		prev = ev.Hash
	}
	if _, err := tx.Exec("UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?", seq, prev, ws); err != nil {
		b.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
}
