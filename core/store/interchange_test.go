package store_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

func ref[T any](v T) *T { return &v }

// decodeTask reads {"task": …} from a mutation response.
func decodeTask(t *testing.T, raw json.RawMessage) store.Task {
	t.Helper()
	var out struct {
		Task store.Task `json:"task"`
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return out.Task
}

// exerciseLegacy appends every kind of legacy mutation to an existing
// workspace journal.
func exerciseLegacy(t *testing.T, st *store.Store, ws string) {
	t.Helper()
	ctx := context.Background()
	must := func(raw json.RawMessage, err error) json.RawMessage {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	legacy := store.LabelActor("go-legacy")
	task := decodeTask(t, must(answerJSON(st.CreateTask(ctx, legacy, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "go-create",
		TaskID: ref("go-interchange"), Title: "Interchange task \u2028 with a line separator", PathScopes: []string{"go/interchange"}}))))
	claimed := decodeTask(t, must(answerJSON(st.ClaimTask(ctx, legacy, store.ClaimInput{WorkspaceID: ws, TaskID: task.ID,
		IdempotencyKey: "go-claim", ExpectedVersion: task.Version}))))
	lease := func(key string, version int64) store.LeaseInput {
		return store.LeaseInput{WorkspaceID: ws, TaskID: task.ID, LeaseID: *claimed.LeaseID, IdempotencyKey: key, ExpectedVersion: version}
	}
	v := claimed.Version
	steps := []func() (json.RawMessage, error){
		func() (json.RawMessage, error) {
			return answerJSON(st.RecordProgress(ctx, legacy, lease("go-progress", v), "half way \u2029 there"))
		},
		func() (json.RawMessage, error) {
			return answerJSON(st.RenewLease(ctx, legacy, lease("go-renew", v), ref(int64(600))))
		},
		func() (json.RawMessage, error) {
			return answerJSON(st.AttachArtifact(ctx, legacy, lease("go-artifact", v), store.ArtifactInput{Kind: "file", URI: "go/interchange/a.go"}))
		},
		func() (json.RawMessage, error) {
			return answerJSON(st.OfferHandoff(ctx, legacy, store.OfferInput{Lease: lease("go-offer", v), ToActor: ref("go-other"), Summary: "take it"}))
		},
		func() (json.RawMessage, error) {
			return answerJSON(st.CompleteTask(ctx, legacy, store.CompleteInput{Lease: lease("go-complete", v), Summary: "done from Go"}))
		},
	}
	for _, step := range steps {
		v = decodeTask(t, must(step())).Version
	}
	must(answerJSON(st.RecordDecision(ctx, legacy, store.RecordDecisionInput{WorkspaceID: ws, IdempotencyKey: "go-decision",
		Topic: "interchange", Decision: "journals written by either implementation continue in the other"})))
}

// exerciseSessions runs every kind of session mutation in a new workspace
// of the same database.
func exerciseSessions(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	root := t.TempDir()
	a, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: "go-a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.StartSession(ctx, store.StartSessionInput{RootPath: root, Actor: "go-b"})
	if err != nil {
		t.Fatal(err)
	}
	ca := store.Credential{SessionID: a.Session.ID, Token: a.Token, Generation: 1}
	cb := store.Credential{SessionID: b.Session.ID, Token: b.Token, Generation: 1}
	raw, err := answerJSON(st.CreateTask(ctx, store.SessionActor(ca), store.CreateTaskInput{IdempotencyKey: "s-create", TaskID: ref("s-task"), Title: "Session task",
		PathScopes: []string{"src"}}))
	if err != nil {
		t.Fatal(err)
	}
	task := decodeTask(t, raw)
	if raw, err = answerJSON(st.ClaimTask(ctx, store.SessionActor(ca), store.ClaimInput{TaskID: task.ID, IdempotencyKey: "s-claim", ExpectedVersion: 1})); err != nil {
		t.Fatal(err)
	}
	claimed := decodeTask(t, raw)
	if _, err := answerJSON(st.AppendReport(ctx, ca, store.AppendReportInput{IdempotencyKey: "s-report", Kind: "observation", Body: "looks fine", TaskID: &task.ID})); err != nil {
		t.Fatal(err)
	}
	raw, err = answerJSON(st.CompleteTask(ctx, store.SessionActor(ca), store.CompleteInput{Lease: store.LeaseInput{WorkspaceID: a.Workspace.ID, TaskID: task.ID,
		LeaseID: *claimed.LeaseID, IdempotencyKey: "s-complete", ExpectedVersion: claimed.Version}, Summary: "complete"}))
	if err != nil {
		t.Fatal(err)
	}
	done := decodeTask(t, raw)
	if _, err := answerJSON(st.ReviewTask(ctx, cb, store.ReviewInput{WorkspaceID: a.Workspace.ID, TaskID: task.ID, IdempotencyKey: "s-review",
		ExpectedVersion: done.Version, Outcome: "accept", Summary: "accepted"})); err != nil {
		t.Fatal(err)
	}
	next, err := st.NextForSession(ctx, cb, nil, 50)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AckCursor(ctx, cb, a.Workspace.ID, next.Events.NextAnchor, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := st.EndSession(ctx, cb, ref("finished")); err != nil {
		t.Fatal(err)
	}
}

func verifyEvery(t *testing.T, st *store.Store) {
	t.Helper()
	results, err := st.VerifyAll(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		if !r.ChainValid {
			t.Fatalf("%s fails verification", r.WorkspaceID)
		}
	}
}

func TestJournalsOfEveryVersionContinueHere(t *testing.T) {
	for _, version := range []string{"v0.1.0", "v0.2.0", "v0.3.0", "v0.3.1", "v0.4.0"} {
		t.Run(version, func(t *testing.T) {
			dir := filepath.Join("testdata", "fixtures", "versions", version)
			db := copyFixture(t, filepath.Join(dir, "collab.sqlite"))
			ctx := context.Background()
			st, err := backend.Open(ctx, backend.Options{Path: db})
			if err != nil {
				t.Fatal(err)
			}
			verifyEvery(t, st)
			for _, w := range loadManifest(t, dir).Workspaces {
				exerciseLegacy(t, st, w.ID)
			}
			exerciseSessions(t, st)
			verifyEvery(t, st)
			st.Close()
			reopened, err := backend.Open(ctx, backend.Options{Path: db})
			if err != nil {
				t.Fatalf("reopen: %v", err)
			}
			defer reopened.Close()
			verifyEvery(t, reopened)
		})
	}
}
