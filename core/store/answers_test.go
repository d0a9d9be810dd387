package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// answerJSON is a mutation's answer as the tool result's bytes, for tests
// that check what a caller is told.
func answerJSON[T any](a *answer.Of[T], err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	return a.JSON(), nil
}

// answerCheck drives mutations against a store whose clock it holds.
type answerCheck struct {
	t   *testing.T
	ctx context.Context
	s   *store.Store
	now time.Time
	ops map[string]bool
}

// checkAnswer calls a mutation twice with one key and proves what a
// caller and the receipt get: the fresh answer is its value encoded whole
// (what the store returned before answers were typed); the receipt is
// what encoding the whole answer and splitting out the receipt member
// stored; the retry replays the first answer byte for byte.
func checkAnswer[T any](c *answerCheck, op, key string, call func(key string) (*answer.Of[T], error)) T {
	c.t.Helper()
	first, err := call(key)
	if err != nil {
		c.t.Fatalf("%s: %v", op, err)
	}
	v, ok := first.Value()
	if !ok {
		c.t.Fatalf("%s: the first call is a replay", op)
	}
	whole, err := answer.Encode(v)
	if err != nil {
		c.t.Fatal(err)
	}
	if !bytes.Equal(first.JSON(), whole) {
		c.t.Errorf("%s answer\n%s\nis not its value encoded whole\n%s", op, first.JSON(), whole)
	}
	var stored []byte
	var operation string
	if err := readPool(c.s).QueryRowContext(c.ctx, "SELECT operation, response_json FROM mutations WHERE idempotency_key = ?", key).
		Scan(&operation, &stored); err != nil {
		c.t.Fatalf("%s receipt: %v", op, err)
	}
	want := whole
	if member, ok := answer.Member(op); ok {
		var split map[string]json.RawMessage
		if err := json.Unmarshal(whole, &split); err != nil || len(split) != 1 {
			c.t.Fatalf("%s: split %s: %v", op, whole, err)
		}
		want = split[member]
	}
	if operation != op || !bytes.Equal(stored, want) {
		c.t.Errorf("%s receipt (%s)\n%s\nwant\n%s", op, operation, stored, want)
	}
	again, err := call(key)
	if err != nil || !again.Replayed() || !bytes.Equal(again.JSON(), first.JSON()) {
		c.t.Errorf("%s retry (%v, replayed %v)\n%s\nwant\n%s", op, err, again != nil && again.Replayed(), answerOrNil(again), first.JSON())
	}
	c.ops[op] = true
	return v
}

func answerOrNil[T any](a *answer.Of[T]) []byte {
	if a == nil {
		return nil
	}
	return a.JSON()
}

// TestEveryMutationAnswersAndStoresWhatItDidBefore drives every
// receipt-writing mutation in both planes and checks each with
// checkAnswer, so the typed answers render and store byte for byte what
// the JSON answers did.
func TestEveryMutationAnswersAndStoresWhatItDidBefore(t *testing.T) {
	dir := t.TempDir()
	c := &answerCheck{t: t, ctx: context.Background(), now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), ops: map[string]bool{}}
	s, err := backend.Open(c.ctx, backend.Options{Path: filepath.Join(dir, "collab.sqlite"), Now: func() time.Time { return c.now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	c.s = s
	root := filepath.Join(dir, "repo")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	start := func(actor string) store.Credential {
		ss, err := s.StartSession(c.ctx, store.StartSessionInput{RootPath: root, Actor: actor})
		if err != nil {
			t.Fatal(err)
		}
		return cred(ss)
	}
	a, b := start("alice"), start("bob")
	sessA, err := s.Session(c.ctx, a.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	ws := sessA.WorkspaceID
	legacyPlane(c, ws)
	sessionPlane(c, ws, a, b)

	p, err := s.JoinPresence(c.ctx, store.JoinInput{WorkspaceID: ws, ClientInstanceID: "client-1", ActorLabel: "al <&>", RuntimeKind: "codex"})
	if err != nil {
		t.Fatal(err)
	}
	beat := checkAnswer(c, "session.heartbeat", "beat", func(k string) (*answer.Of[store.PresenceAnswer], error) {
		return s.HeartbeatPresence(c.ctx, store.PresenceUpdate{SessionID: p.ID, IdempotencyKey: k, ExpectedVersion: p.Version})
	})
	checkAnswer(c, "session.leave", "leave", func(k string) (*answer.Of[store.PresenceAnswer], error) {
		return s.LeavePresence(c.ctx, store.PresenceUpdate{SessionID: p.ID, IdempotencyKey: k, ExpectedVersion: beat.Session.Version})
	})

	for _, op := range []string{"task.create", "task.claim", "task.progress", "task.renew", "artifact.attach", "handoff.offer",
		"handoff.respond", "task.release", "task.block", "task.unblock", "task.complete", "decision.record",
		"task.create.v2", "task.claim.v2", "task.progress.v2", "task.renew.v2", "artifact.attach.v2", "handoff.offer.v2",
		"handoff.respond.v2", "task.release.v2", "task.block.v2", "task.unblock.v2", "task.complete.v2", "task.review.v2",
		"task.recover.v2", "report.append.v2", "session.heartbeat", "session.leave"} {
		if !c.ops[op] {
			t.Errorf("%s was not exercised", op)
		}
	}
}

// legacyPlane runs every label-based mutation.
func legacyPlane(c *answerCheck, ws string) {
	s, ctx := c.s, c.ctx
	carol, dave := store.LabelActor("carol"), store.LabelActor("dave")
	id := "legacy-task"
	tk := checkAnswer(c, "task.create", "l-create", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.CreateTask(ctx, carol, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: k, TaskID: &id,
			Title: "Legacy \u2028 <title> & more", PathScopes: []string{"legacy/**"}})
	}).Task
	claim := func(key string) store.Task {
		return checkAnswer(c, "task.claim", key, func(k string) (*answer.Of[store.TaskAnswer], error) {
			return s.ClaimTask(ctx, carol, store.ClaimInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: k, ExpectedVersion: tk.Version})
		}).Task
	}
	tk = claim("l-claim")
	lease := func(k string) store.LeaseInput {
		return store.LeaseInput{WorkspaceID: ws, TaskID: id, LeaseID: *tk.LeaseID, IdempotencyKey: k, ExpectedVersion: tk.Version}
	}
	tk = checkAnswer(c, "task.progress", "l-progress", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.RecordProgress(ctx, carol, lease(k), "half \u2029 way")
	}).Task
	tk = checkAnswer(c, "task.renew", "l-renew", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.RenewLease(ctx, carol, lease(k), nil)
	}).Task
	tk = checkAnswer(c, "artifact.attach", "l-attach", func(k string) (*answer.Of[store.AttachAnswer], error) {
		return s.AttachArtifact(ctx, carol, lease(k), store.ArtifactInput{Kind: "file", URI: "legacy/a.go", Label: ptr("<a>")})
	}).Task
	offer := checkAnswer(c, "handoff.offer", "l-offer", func(k string) (*answer.Of[store.HandoffAnswer], error) {
		return s.OfferHandoff(ctx, carol, store.OfferInput{Lease: lease(k), ToActor: ptr("dave"), Summary: "yours"})
	})
	tk = checkAnswer(c, "handoff.respond", "l-respond", func(k string) (*answer.Of[store.HandoffAnswer], error) {
		return s.RespondToHandoff(ctx, dave, store.RespondInput{WorkspaceID: ws, HandoffID: offer.Handoff.ID, IdempotencyKey: k,
			ExpectedVersion: offer.Task.Version, Response: "accept"})
	}).Task
	tk = checkAnswer(c, "task.release", "l-release", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.ReleaseLease(ctx, dave, lease(k), ptr("back"))
	}).Task
	tk = claim("l-claim-2")
	tk = checkAnswer(c, "task.block", "l-block", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.BlockTask(ctx, carol, lease(k), "waiting")
	}).Task
	tk = checkAnswer(c, "task.unblock", "l-unblock", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.UnblockTask(ctx, carol, store.UnblockInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: k, ExpectedVersion: tk.Version})
	}).Task
	tk = claim("l-claim-3")
	checkAnswer(c, "task.complete", "l-complete", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.CompleteTask(ctx, carol, store.CompleteInput{Lease: lease(k), Summary: "done <ok>"})
	})
	checkAnswer(c, "decision.record", "l-decision", func(k string) (*answer.Of[store.DecisionAnswer], error) {
		return s.RecordDecision(ctx, carol, store.RecordDecisionInput{WorkspaceID: ws, IdempotencyKey: k, Topic: "t & <u>", Decision: "d"})
	})
}

// sessionPlane runs every credential-bound mutation.
func sessionPlane(c *answerCheck, ws string, a, b store.Credential) {
	s, ctx := c.s, c.ctx
	asA, asB := store.SessionActor(a), store.SessionActor(b)
	id := "session-task"
	policy := "accepted"
	tk := checkAnswer(c, "task.create.v2", "s-create", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.CreateTask(ctx, asA, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: k, TaskID: &id, Title: "Session <task>", PathScopes: []string{"src/**"},
			CompletionPolicy: &policy})
	}).Task
	claim := func(key string, who store.Actor, task string, version int64) store.Task {
		return checkAnswer(c, "task.claim.v2", key, func(k string) (*answer.Of[store.TaskAnswer], error) {
			return s.ClaimTask(ctx, who, store.ClaimInput{WorkspaceID: ws, TaskID: task, IdempotencyKey: k, ExpectedVersion: version})
		}).Task
	}
	tk = claim("s-claim", asA, id, tk.Version)
	lease := func(k string) store.LeaseInput {
		return store.LeaseInput{WorkspaceID: ws, TaskID: id, LeaseID: *tk.LeaseID, IdempotencyKey: k, ExpectedVersion: tk.Version}
	}
	tk = checkAnswer(c, "task.progress.v2", "s-progress", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.RecordProgress(ctx, asA, lease(k), "going")
	}).Task
	tk = checkAnswer(c, "task.renew.v2", "s-renew", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.RenewLease(ctx, asA, lease(k), nil)
	}).Task
	tk = checkAnswer(c, "artifact.attach.v2", "s-attach", func(k string) (*answer.Of[store.AttachAnswer], error) {
		return s.AttachArtifact(ctx, asA, lease(k), store.ArtifactInput{Kind: "url", URI: "https://example.invalid/?a=1&b=<2>"})
	}).Task
	offer := checkAnswer(c, "handoff.offer.v2", "s-offer", func(k string) (*answer.Of[store.HandoffAnswer], error) {
		return s.OfferHandoff(ctx, asA, store.OfferInput{Lease: lease(k), ToSessionID: &b.SessionID, Summary: "take it"})
	})
	tk = checkAnswer(c, "handoff.respond.v2", "s-respond", func(k string) (*answer.Of[store.HandoffAnswer], error) {
		return s.RespondToHandoff(ctx, asB, store.RespondInput{WorkspaceID: ws, HandoffID: offer.Handoff.ID, IdempotencyKey: k,
			ExpectedVersion: offer.Task.Version, Response: "decline"})
	}).Task
	tk = checkAnswer(c, "task.release.v2", "s-release", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.ReleaseLease(ctx, asA, lease(k), nil)
	}).Task
	tk = claim("s-claim-2", asA, id, tk.Version)
	tk = checkAnswer(c, "task.block.v2", "s-block", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.BlockTask(ctx, asA, lease(k), "blocked \u2028")
	}).Task
	tk = checkAnswer(c, "task.unblock.v2", "s-unblock", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.UnblockTask(ctx, asA, store.UnblockInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: k, ExpectedVersion: tk.Version})
	}).Task
	tk = claim("s-claim-3", asA, id, tk.Version)
	tk = checkAnswer(c, "task.complete.v2", "s-complete", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.CompleteTask(ctx, asA, store.CompleteInput{Lease: lease(k), Summary: "done"})
	}).Task
	checkAnswer(c, "task.review.v2", "s-review", func(k string) (*answer.Of[store.ReviewAnswer], error) {
		return s.ReviewTask(ctx, b, store.ReviewInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: k, ExpectedVersion: tk.Version,
			Outcome: "accept", Summary: "looks <right>"})
	})
	checkAnswer(c, "report.append.v2", "s-report", func(k string) (*answer.Of[store.ReportAnswer], error) {
		return s.AppendReport(ctx, a, store.AppendReportInput{IdempotencyKey: k, Kind: "observation", Body: "seen & noted"})
	})
	checkAnswer(c, "report.append.v2", "s-decision", func(k string) (*answer.Of[store.DecisionAnswer], error) {
		return s.RecordDecision(ctx, asA, store.RecordDecisionInput{WorkspaceID: ws, IdempotencyKey: k, Topic: "x", Decision: "y",
			AuthorityScope: ptr("repo"), AuthorityBasis: ptr("owner")})
	})

	lost := "lost-task"
	created := checkAnswer(c, "task.create.v2", "s-create-lost", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.CreateTask(ctx, asA, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: k, TaskID: &lost, Title: "Lost", PathScopes: []string{"lost/**"}})
	}).Task
	held := claim("s-claim-lost", asA, lost, created.Version)
	c.now = c.now.Add(48 * time.Hour)
	checkAnswer(c, "task.recover.v2", "s-recover", func(k string) (*answer.Of[store.TaskAnswer], error) {
		return s.RecoverTask(ctx, b, store.RecoverInput{WorkspaceID: ws, TaskID: lost, IdempotencyKey: k, ExpectedVersion: held.Version,
			RecoveryNote: "lease lapsed", Action: ptr("release")})
	})
}
