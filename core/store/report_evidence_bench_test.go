package store_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// evidenceBench is a workspace with a history to cite: tasks that carry
// checkpoints, an artifact, reports and their events.
type evidenceBench struct {
	st   *store.Store
	ss   store.StartedSession
	refs []string
	task string
}

// newEvidenceBench creates tasks tasks in a fresh session's workspace,
// each with a distinct base checkpoint, attaches an artifact to the last,
// posts one report, and cites all four kinds of evidence: the artifact,
// the first event, the report, and the last task's checkpoint (the last
// one every engine's lookup digests).
func newEvidenceBench(b *testing.B, tasks int) evidenceBench {
	b.Helper()
	st, ss := benchSession(b)
	ctx := context.Background()
	ws := ss.Workspace.ID
	var last string
	for i := 0; i < tasks; i++ {
		last = fmt.Sprintf("task_%04d", i)
		if _, err := st.CreateTask(ctx, store.LabelActor("bench"), store.CreateTaskInput{WorkspaceID: ws,
			IdempotencyKey: "c" + last, TaskID: ptr(last), Title: "bench " + last}); err != nil {
			b.Fatal(err)
		}
	}
	checkpoint := func(i int) string {
		return fmt.Sprintf(`{"branch":null,"captured_at":"2026-07-21T12:00:00.000Z","dirty":null,"head_sha":null,`+
			`"worktree_id":"wt_%024d"}`, i)
	}
	err := rawWrite(ctx, st, func(tx *Tx) error {
		for i := 0; i < tasks; i++ {
			if _, err := tx.ExecContext(ctx, "UPDATE tasks SET base_checkpoint_json = ? WHERE workspace_id = ? AND id = ?",
				checkpoint(i), ws, fmt.Sprintf("task_%04d", i)); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO artifacts (id, workspace_id, task_id, kind, uri, attached_by, attached_at)
VALUES ('artifact_bench', ?, ?, 'file', 'src/a.go', 'bench', '2026-07-21T12:00:00.000Z')`, ws, last)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	benchReports(b, st, ss, 1, "cited")
	var reportID, eventID string
	if err := readPool(st).QueryRow("SELECT id FROM reports WHERE workspace_id = ?", ws).Scan(&reportID); err != nil {
		b.Fatal(err)
	}
	if err := readPool(st).QueryRow("SELECT id FROM events WHERE workspace_id = ? ORDER BY sequence LIMIT 1", ws).
		Scan(&eventID); err != nil {
		b.Fatal(err)
	}
	digest, err := store.StoredCheckpointDigest(checkpoint(tasks - 1))
	if err != nil {
		b.Fatal(err)
	}
	return evidenceBench{st: st, ss: ss, task: last,
		refs: []string{"artifact:artifact_bench", "event:" + eventID, "report:" + reportID, "checkpoint:" + digest}}
}

// BenchmarkAppendReportWithEvidence measures one report about a task that
// cites an artifact, an event, a report and a checkpoint, in a workspace
// of 200 tasks that all carry a checkpoint: the validation reads of every
// evidence kind on top of BenchmarkAppendReportFresh's path.
func BenchmarkAppendReportWithEvidence(b *testing.B) {
	w := newEvidenceBench(b, 200)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.st.AppendReport(ctx, benchCred(w.ss), store.AppendReportInput{IdempotencyKey: fmt.Sprintf("e%d", i),
			TaskID: ptr(w.task), Kind: "observation", Body: "tests green at the cited checkpoint",
			EvidenceRefs: w.refs}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendReportCitingRecords is BenchmarkAppendReportWithEvidence
// without the checkpoint: the by-id lookups alone.
func BenchmarkAppendReportCitingRecords(b *testing.B) {
	w := newEvidenceBench(b, 200)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := w.st.AppendReport(ctx, benchCred(w.ss), store.AppendReportInput{IdempotencyKey: fmt.Sprintf("e%d", i),
			TaskID: ptr(w.task), Kind: "observation", Body: "tests green in the cited records",
			EvidenceRefs: w.refs[:3]}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPost posts in as ss and returns the new report's id.
func benchPost(b *testing.B, st *store.Store, ss store.StartedSession, in store.AppendReportInput) string {
	b.Helper()
	a, err := st.AppendReport(context.Background(), benchCred(ss), in)
	if err != nil {
		b.Fatal(err)
	}
	v, ok := a.Value()
	if !ok {
		b.Fatalf("report %s was answered from a receipt", in.IdempotencyKey)
	}
	return v.Report.ID
}

// BenchmarkCompletionRelations measures the two relation checks an
// acceptance makes (is the completion report obsoleted, is a challenge of
// it open) in workspaces of 300 and 3000 reports, where the completion
// was corrected and the correction withdrawn, and challenged and the
// challenge resolved.
func BenchmarkCompletionRelations(b *testing.B) {
	for _, n := range []int{300, 3000} {
		b.Run(fmt.Sprintf("reports=%d", n), func(b *testing.B) { benchCompletionRelations(b, n) })
	}
}

func benchCompletionRelations(b *testing.B, reports int) {
	st, ss := benchSession(b)
	ctx := context.Background()
	rel := func(key, relation, target string) string {
		return benchPost(b, st, ss, store.AppendReportInput{IdempotencyKey: key, Kind: "observation", Body: key,
			Relation: ptr(relation), TargetReportID: ptr(target)})
	}
	completion := benchPost(b, st, ss, store.AppendReportInput{IdempotencyKey: "completion", Kind: "observation",
		Body: "done"})
	benchReports(b, st, ss, reports, "noise")
	correction := rel("correct", "corrects", completion)
	rel("withdraw", "withdraws", correction)
	challenge := rel("challenge", "challenges", completion)
	rel("resolve", "resolves", challenge)
	ws := ss.Workspace.ID
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		err := st.Engine().Read(ctx, func(tx store.Tx) error {
			if obsolete, err := store.CompletionObsolete(ctx, tx, ws, completion); err != nil || obsolete {
				return fmt.Errorf("completion obsolete = %v, %v", obsolete, err)
			}
			if open, err := store.UnresolvedChallenge(ctx, tx, ws, completion); err != nil || open {
				return fmt.Errorf("challenge open = %v, %v", open, err)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
