package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// reportFixture is a real store with two sessions (alice, bob) in one
// workspace and a third (carol) in another.
type reportFixture struct {
	t           *testing.T
	ctx         context.Context
	s           *store.Store
	a, b, other store.StartedSession
	keys        int
}

func newReportFixture(t *testing.T) *reportFixture {
	t.Helper()
	dir := t.TempDir()
	ctx := context.Background()
	s, err := backend.Open(ctx, backend.Options{Path: filepath.Join(dir, "state", "collab.sqlite")})
	if err != nil {
		t.Fatalf("open store: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	f := &reportFixture{t: t, ctx: ctx, s: s}
	main, elsewhere := filepath.Join(dir, "main"), filepath.Join(dir, "elsewhere")
	f.a = f.start(main, "alice")
	f.b = f.start(main, "bob")
	f.other = f.start(elsewhere, "carol")
	if f.a.Workspace.ID != f.b.Workspace.ID || f.a.Workspace.ID == f.other.Workspace.ID {
		t.Fatalf("fixture workspaces: a=%s b=%s other=%s", f.a.Workspace.ID, f.b.Workspace.ID, f.other.Workspace.ID)
	}
	return f
}

func (f *reportFixture) start(root, actor string) store.StartedSession {
	f.t.Helper()
	if err := os.MkdirAll(root, 0o700); err != nil {
		f.t.Fatal(err)
	}
	ss, err := f.s.StartSession(f.ctx, store.StartSessionInput{RootPath: root, Actor: actor})
	if err != nil {
		f.t.Fatalf("start session %s: %v", actor, err)
	}
	return ss
}

func cred(ss store.StartedSession) store.Credential {
	return store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
}

// nextKey returns a fresh idempotency key.
func (f *reportFixture) nextKey() string {
	f.keys++
	return fmt.Sprintf("key-%d", f.keys)
}

// append posts in as ss, filling in a fresh key when none is given.
func (f *reportFixture) append(ss store.StartedSession, in store.AppendReportInput) (store.Report, error) {
	if in.IdempotencyKey == "" {
		in.IdempotencyKey = f.nextKey()
	}
	raw, err := answerJSON(f.s.AppendReport(f.ctx, cred(ss), in))
	if err != nil {
		return store.Report{}, err
	}
	var out struct{ Report store.Report }
	if err := json.Unmarshal(raw, &out); err != nil {
		f.t.Fatalf("decode report result %s: %v", raw, err)
	}
	return out.Report, nil
}

// post is append that must succeed.
func (f *reportFixture) post(ss store.StartedSession, in store.AppendReportInput) store.Report {
	f.t.Helper()
	r, err := f.append(ss, in)
	if err != nil {
		f.t.Fatalf("append report %+v: %v", in, err)
	}
	return r
}

// task creates a coordination task with the given id as ss.
func (f *reportFixture) task(ss store.StartedSession, id string) {
	f.t.Helper()
	mode := "coordination"
	if _, err := answerJSON(f.s.CreateTask(f.ctx, store.SessionActor(cred(ss)), store.CreateTaskInput{
		IdempotencyKey: f.nextKey(), TaskID: &id, Title: "Task " + id, WorkMode: &mode,
	})); err != nil {
		f.t.Fatalf("create task %s: %v", id, err)
	}
}

// footprint counts what a write leaves behind.
type footprint struct{ events, reports, receipts, decisions int }

func (f *reportFixture) footprint() footprint {
	f.t.Helper()
	var fp footprint
	for table, n := range map[string]*int{"events": &fp.events, "reports": &fp.reports, "mutations": &fp.receipts,
		"decisions": &fp.decisions} {
		if err := readPool(f.s).QueryRowContext(f.ctx, "SELECT count(*) FROM "+table).Scan(n); err != nil {
			f.t.Fatalf("count %s: %v", table, err)
		}
	}
	return fp
}

// eventAt reads the type, session and payload of one event.
func (f *reportFixture) eventAt(wsID string, seq int64) (typ string, session sql.NullString, payload map[string]any) {
	f.t.Helper()
	var text string
	err := readPool(f.s).QueryRowContext(f.ctx, "SELECT type, session_id, payload_json FROM events WHERE workspace_id = ? AND sequence = ?",
		wsID, seq).Scan(&typ, &session, &text)
	if err != nil {
		f.t.Fatalf("read event %d: %v", seq, err)
	}
	if err := json.Unmarshal([]byte(text), &payload); err != nil {
		f.t.Fatalf("decode payload %s: %v", text, err)
	}
	return typ, session, payload
}

// wantCode fails unless err is a refusal with code.
func wantCode(t *testing.T, err error, code string) *collaberr.Error {
	t.Helper()
	ce, ok := collaberr.As(err)
	if !ok {
		t.Fatalf("got %v, want refusal %s", err, code)
	}
	if ce.Code != code {
		t.Fatalf("got %s (%s), want %s", ce.Code, ce.Message, code)
	}
	return ce
}

func ptr(s string) *string { return &s }

// reportVectors are the byte-exact expectations in testdata.
type reportVectors struct {
	ReportRequest    string `json:"report_request"`
	DecisionRequest  string `json:"decision_request"`
	Checkpoint       string `json:"checkpoint"`
	CheckpointDigest string `json:"checkpoint_digest"`
}

func loadReportVectors(t *testing.T) reportVectors {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "reports_vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v reportVectors
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode vectors: %v", err)
	}
	return v
}

// storedReport reads one report back through the engine.
func (f *reportFixture) storedReport(id string) (store.Report, bool, error) {
	var r store.Report
	var ok bool
	err := f.s.Engine().Read(f.ctx, func(tx store.Tx) error {
		var err error
		r, ok, err = store.FindReport(f.ctx, tx, id)
		return err
	})
	return r, ok, err
}
