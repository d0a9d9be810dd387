package store_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// claimed creates a coordination task for ss, claims it, and returns the
// claim's lease id (the task is then at version 2).
func (f *reportFixture) claimed(ss store.StartedSession, id string) string {
	f.t.Helper()
	f.task(ss, id)
	out, err := answerJSON(f.s.ClaimTask(f.ctx, store.SessionActor(cred(ss)), store.ClaimInput{WorkspaceID: ss.Workspace.ID, TaskID: id,
		IdempotencyKey: f.nextKey(), ExpectedVersion: 1}))
	if err != nil {
		f.t.Fatalf("claim %s: %v", id, err)
	}
	var r struct {
		Task store.Task `json:"task"`
	}
	if err := json.Unmarshal(out, &r); err != nil || r.Task.LeaseID == nil {
		f.t.Fatalf("claim answer %s: %v", out, err)
	}
	return *r.Task.LeaseID
}

func (f *reportFixture) storedReceipt(key string) string {
	f.t.Helper()
	var s string
	if err := readPool(f.s).QueryRowContext(f.ctx, "SELECT response_json FROM mutations WHERE idempotency_key = ?", key).Scan(&s); err != nil {
		f.t.Fatalf("receipt %s: %v", key, err)
	}
	return s
}

// TestReceiptsHoldTheBareObjectAndReplaysWrapIt: the reference stores the
// bare task of a single-member answer and wraps it on replay; a receipt
// holds the whole answer when it has several members. Old wrapped
// receipts of this implementation still replay unchanged.
func TestReceiptsHoldTheBareObjectAndReplaysWrapIt(t *testing.T) {
	f := newReportFixture(t)
	ws := f.a.Workspace.ID
	id := "bare"
	in := store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "legacy-create", TaskID: &id, Title: "T \u2028 line"}
	answer, err := answerJSON(f.s.CreateTask(f.ctx, store.LabelActor("carol"), in))
	if err != nil {
		t.Fatal(err)
	}
	stored := f.storedReceipt("legacy-create")
	if want := `{"task":` + stored + `}`; string(answer) != want {
		t.Fatalf("answer %s is not the stored receipt %s wrapped as {task}", answer, stored)
	}
	if !bytes.Contains(answer, []byte("\u2028")) {
		t.Errorf("U+2028 is not written raw: %s", answer)
	}
	replay, err := answerJSON(f.s.CreateTask(f.ctx, store.LabelActor("carol"), in))
	if err != nil || !bytes.Equal(replay, answer) {
		t.Fatalf("replay %s (%v), want %s", replay, err, answer)
	}
	if err := rawWrite(f.ctx, f.s, func(tx *Tx) error {
		_, err := tx.ExecContext(f.ctx, `UPDATE mutations SET response_json = '{"task":' || response_json || '}'
WHERE idempotency_key = 'legacy-create'`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if replay, err := answerJSON(f.s.CreateTask(f.ctx, store.LabelActor("carol"), in)); err != nil || !bytes.Equal(replay, answer) {
		t.Fatalf("replay of an old wrapped receipt %s (%v), want %s", replay, err, answer)
	}

	lease := f.claimed(f.a, "attach")
	att, err := answerJSON(f.s.AttachArtifact(f.ctx, store.SessionActor(cred(f.a)), store.LeaseInput{WorkspaceID: ws, TaskID: "attach",
		LeaseID: lease, IdempotencyKey: "attach-key", ExpectedVersion: 2}, store.ArtifactInput{Kind: "file", URI: "file:///x"}))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(att, []byte(`{"task":{`)) || string(att) != f.storedReceipt("attach-key") {
		t.Fatalf("attach answer %s must be {task, artifact} and stored whole, stored %s", att, f.storedReceipt("attach-key"))
	}
}

func ptrCred(c store.Credential) *store.Credential { return &c }

// TestSessionOfferJudgesTheTargetBeforeTheTask: a stale version or an
// unknown task does not hide a bad target.
func TestSessionOfferJudgesTheTargetBeforeTheTask(t *testing.T) {
	f := newReportFixture(t)
	ws := f.a.Workspace.ID
	lease := f.claimed(f.a, "offered")
	offer := func(task string, version int64, to string) error {
		_, err := answerJSON(f.s.OfferHandoff(f.ctx, store.SessionActor(cred(f.a)), store.OfferInput{Lease: store.LeaseInput{WorkspaceID: ws, TaskID: task,
			LeaseID: lease, IdempotencyKey: f.nextKey(), ExpectedVersion: version}, ToSessionID: &to, Summary: "s"}))
		return err
	}
	wantCode(t, offer("offered", 99, f.a.Session.ID), "invalid_handoff")
	wantCode(t, offer("offered", 99, "session_ghost"), "session_not_found")
	wantCode(t, offer("missing", 2, "session_ghost"), "session_not_found")
	wantCode(t, offer("offered", 99, f.other.Session.ID), "handoff_target_unavailable")
	wantCode(t, offer("offered", 99, f.b.Session.ID), "version_conflict")
}

// TestSessionReleaseJournalsOfferExpiryWithoutASession: the handoff.expired
// a release causes has session_id null (docs/contract.md#events).
func TestSessionReleaseJournalsOfferExpiryWithoutASession(t *testing.T) {
	f := newReportFixture(t)
	ws := f.a.Workspace.ID
	lease := f.claimed(f.a, "released")
	to := f.b.Session.ID
	if _, err := answerJSON(f.s.OfferHandoff(f.ctx, store.SessionActor(cred(f.a)), store.OfferInput{Lease: store.LeaseInput{WorkspaceID: ws, TaskID: "released",
		LeaseID: lease, IdempotencyKey: f.nextKey(), ExpectedVersion: 2}, ToSessionID: &to, Summary: "s"})); err != nil {
		t.Fatal(err)
	}
	if _, err := answerJSON(f.s.ReleaseLease(f.ctx, store.SessionActor(cred(f.a)), store.LeaseInput{WorkspaceID: ws, TaskID: "released", LeaseID: lease,
		IdempotencyKey: f.nextKey(), ExpectedVersion: 3}, nil)); err != nil {
		t.Fatal(err)
	}
	var seq int64
	if err := readPool(f.s).QueryRowContext(f.ctx, "SELECT sequence FROM events WHERE type = 'handoff.expired'").Scan(&seq); err != nil {
		t.Fatal(err)
	}
	if _, session, _ := f.eventAt(ws, seq); session.Valid {
		t.Fatalf("handoff.expired carries session_id %q, want null", session.String)
	}
}

// TestBlankPresenceLabelsAreAbsent: whitespace-only labels become null.
func TestBlankPresenceLabelsAreAbsent(t *testing.T) {
	f := newReportFixture(t)
	for i, blank := range []string{"   ", "\u3000", "\ufeff"} {
		p, err := f.s.JoinPresence(f.ctx, store.JoinInput{WorkspaceID: f.a.Workspace.ID, ClientInstanceID: "client-" + string(rune('a'+i)),
			ActorLabel: "al", RuntimeKind: "codex", ProviderLabel: ptr(blank), ModelLabel: ptr(blank)})
		if err != nil {
			t.Fatalf("%q: %v", blank, err)
		}
		if p.ProviderLabel != nil || p.ModelLabel != nil {
			t.Fatalf("%q: labels %v %v, want null", blank, p.ProviderLabel, p.ModelLabel)
		}
	}
}
