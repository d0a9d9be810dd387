//go:build !collab_noreadahead

package store_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/postgres"
	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// pollFixture is a PostgreSQL journal with something in every part of a
// poll: two sessions, events, reports routed to the second, a claimed
// task with a path scope, a pending offer to the second, and the second's
// cursor acknowledged past genesis.
type pollFixture struct {
	st     *store.Store
	eng    *postgres.Engine
	ws     string
	holder store.Credential
	poller store.StartedSession
}

func newPollFixture(t *testing.T) pollFixture {
	t.Helper()
	t.Setenv("XDG_DATA_HOME", t.TempDir())
	ctx := context.Background()
	st := pgStore(t, pgtest.FreshDatabase(t), false)
	root := filepath.Join(t.TempDir(), "main")
	a, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: "claude:alpha"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: "codex:beta"})
	if err != nil {
		t.Fatal(err)
	}
	f := pollFixture{st: st, eng: store.BackendOf(st).(backend.Postgres).Engine, ws: a.Session.WorkspaceID, holder: benchCred(a), poller: b}
	created, err := st.CreateTask(ctx, store.SessionActor(f.holder), store.CreateTaskInput{WorkspaceID: f.ws, IdempotencyKey: "create",
		Title: "parser", PathScopes: []string{"src/parser"}})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := created.Value()
	task := v.Task
	claimed, err := st.ClaimTask(ctx, store.SessionActor(f.holder), store.ClaimInput{WorkspaceID: f.ws, TaskID: task.ID,
		IdempotencyKey: "claim", ExpectedVersion: task.Version})
	if err != nil {
		t.Fatal(err)
	}
	v, _ = claimed.Value()
	task = v.Task
	to := b.Session.ID
	if _, err := st.OfferHandoff(ctx, store.SessionActor(f.holder), store.OfferInput{Lease: store.LeaseInput{WorkspaceID: f.ws, TaskID: task.ID,
		LeaseID: *task.LeaseID, IdempotencyKey: "offer", ExpectedVersion: task.Version}, ToSessionID: &to, Summary: "take it"}); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"r1", "r2", "r3"} {
		in := benchReport(key)
		in.ToSessionID = &to
		if _, err := st.AppendReport(ctx, f.holder, in); err != nil {
			t.Fatal(err)
		}
	}
	next, err := st.NextForSession(ctx, benchCred(b), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AckCursor(ctx, benchCred(b), f.ws, next.Events.NextAnchor, b.Session.CursorVersion); err != nil {
		t.Fatal(err)
	}
	return f
}

// pollReads is what the reads of a poll return, gathered through one
// transaction's engine methods.
type pollReads struct {
	Page    []journal.Event
	Anchor  []journal.Event
	Tasks   []store.Task
	Claims  []store.Task
	Offers  []store.Handoff
	Reports []store.Report
	Errors  []string
}

func readPoll(ctx context.Context, tx store.Tx, ws, repo, session string) pollReads {
	var r pollReads
	keep := func(err error) {
		if err != nil {
			r.Errors = append(r.Errors, err.Error())
		}
	}
	var err error
	r.Page, err = tx.Events(ctx, ws, store.EventRange{After: 1, Limit: 51})
	keep(err)
	r.Anchor, err = tx.Events(ctx, ws, store.EventRange{After: 1, Limit: 1})
	keep(err)
	r.Tasks, err = tx.Tasks(ctx, ws, store.TaskFilter{})
	keep(err)
	r.Claims, err = tx.ReservingTasks(ctx, repo)
	keep(err)
	r.Offers, err = store.PendingOffers(ctx, tx, ws, "")
	keep(err)
	r.Reports, err = tx.Reports(ctx, ws, store.ReportFilter{After: 0, Through: 50, RoutedTo: session})
	keep(err)
	return r
}

// TestPostgresReadAheadAnswersWhatTheServerAnswers reads every part of a
// poll twice in one write transaction, once statement by statement and
// once read ahead, and requires the same answers, the second time in one
// round trip.
func TestPostgresReadAheadAnswersWhatTheServerAnswers(t *testing.T) {
	f := newPollFixture(t)
	ctx := context.Background()
	ws, err := f.st.Workspace(ctx, f.ws)
	if err != nil {
		t.Fatal(err)
	}
	err = f.eng.Write(ctx, func(tx store.Tx) error {
		direct := readPoll(ctx, tx, f.ws, ws.RepositoryKey, f.poller.Session.ID)
		if len(direct.Errors) > 0 || len(direct.Page) == 0 || len(direct.Tasks) == 0 || len(direct.Claims) == 0 ||
			len(direct.Offers) == 0 || len(direct.Reports) == 0 {
			t.Fatalf("the fixture leaves a part of the poll empty: %+v", direct)
		}
		tx.(store.ReadAheader).ReadAhead(ctx, func(q store.Tx) {
			readPoll(ctx, q, f.ws, ws.RepositoryKey, f.poller.Session.ID)
		})
		before := f.eng.WriteRoundTrips()
		ahead := readPoll(ctx, tx, f.ws, ws.RepositoryKey, f.poller.Session.ID)
		if trips := f.eng.WriteRoundTrips() - before; trips != 1 {
			t.Errorf("the reads ahead took %d round trips, want 1", trips)
		}
		if !reflect.DeepEqual(ahead, direct) {
			t.Errorf("read ahead:\n%+v\nstatement by statement:\n%+v", ahead, direct)
		}
		return sql.ErrTxDone // roll back: the sweep's offers stay pending
	})
	if err != sql.ErrTxDone {
		t.Fatal(err)
	}
}

// TestPostgresReadAheadRowsDoNotOutliveAWrite changes a task after the
// read-ahead batch was sent and requires the read of tasks that follows
// to see the change, while an untouched table is still answered ahead.
func TestPostgresReadAheadRowsDoNotOutliveAWrite(t *testing.T) {
	f := newPollFixture(t)
	ctx := context.Background()
	err := f.eng.Write(ctx, func(tx store.Tx) error {
		tx.(store.ReadAheader).ReadAhead(ctx, func(q store.Tx) {
			_, _ = q.Events(ctx, f.ws, store.EventRange{Limit: 50})
			_, _ = q.Tasks(ctx, f.ws, store.TaskFilter{})
			_, _ = q.Reports(ctx, f.ws, store.ReportFilter{After: 0, Through: 50})
		})
		if _, err := tx.Events(ctx, f.ws, store.EventRange{Limit: 50}); err != nil { // sends the batch
			return err
		}
		w := tx.(interface {
			ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
		})
		if _, err := w.ExecContext(ctx, "UPDATE tasks SET title = ? WHERE workspace_id = ?", "renamed", f.ws); err != nil {
			return err
		}
		before := f.eng.WriteRoundTrips()
		tasks, err := tx.Tasks(ctx, f.ws, store.TaskFilter{})
		if err != nil {
			return err
		}
		if len(tasks) != 1 || tasks[0].Title != "renamed" {
			t.Errorf("tasks read after the write: %+v, want the renamed task", tasks)
		}
		if trips := f.eng.WriteRoundTrips() - before; trips != 1 {
			t.Errorf("the read of the written table took %d round trips, want 1 (its own)", trips)
		}
		before = f.eng.WriteRoundTrips()
		if _, err := tx.Reports(ctx, f.ws, store.ReportFilter{After: 0, Through: 50}); err != nil {
			return err
		}
		if trips := f.eng.WriteRoundTrips() - before; trips != 0 {
			t.Errorf("the reports, which the write did not touch, took %d round trips, want 0", trips)
		}
		return sql.ErrTxDone
	})
	if err != sql.ErrTxDone {
		t.Fatal(err)
	}
}

// TestPostgresCallsTakeTheirRoundTrips counts the round trips of the
// calls agents make most. Every write transaction sends its BEGIN with
// its first statement; a poll reads the session, then the head, then
// everything else ahead, then commits; an acknowledgement reads all it
// needs in one batch and sends its cursor with the COMMIT.
func TestPostgresCallsTakeTheirRoundTrips(t *testing.T) {
	f := newPollFixture(t)
	ctx := context.Background()
	poller := benchCred(f.poller)
	var next store.Next
	for _, c := range []struct {
		name string
		want int64
		call func() error
	}{
		{"collab_next", 4, func() (err error) { next, err = f.st.NextForSession(ctx, poller, nil, 50); return err }},
		{"collab_cursor_ack", 2, func() error {
			sess, err := f.st.Session(ctx, poller.SessionID)
			if err == nil {
				_, err = f.st.AckCursor(ctx, poller, f.ws, next.Events.NextAnchor, sess.CursorVersion)
			}
			return err
		}},
		{"collab_report_append", 4, func() error { _, err := f.st.AppendReport(ctx, f.holder, benchReport("r4")); return err }},
	} {
		before := f.eng.WriteRoundTrips()
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := f.eng.WriteRoundTrips() - before; got != c.want {
			t.Errorf("%s took %d round trips, want %d", c.name, got, c.want)
		}
	}
}
