package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestAppendReportNormalisesBeforeAuthenticating proves the pre-transaction
// order of docs/contract.md#report-append-order: each case carries two faults
// and expects the earlier field's code, and all of them are reported before
// the (bad) credential is even looked at.
func TestAppendReportNormalisesBeforeAuthenticating(t *testing.T) {
	f := newReportFixture(t)
	bad := cred(f.a)
	bad.Token = "not-the-token"
	long := func(n int) *string { s := strings.Repeat("x", n); return &s }
	many := make([]string, 129)
	for i := range many {
		many[i] = "report:r"
	}
	cases := []struct {
		name string
		in   store.AppendReportInput
		code string
	}{
		{"task_id first", store.AppendReportInput{TaskID: ptr("bad id"), ToSessionID: ptr("-x"), Kind: "opinion"}, "invalid_task_id"},
		{"to_session_id before kind", store.AppendReportInput{ToSessionID: ptr("-x"), Kind: "opinion"}, "invalid_to_session_id"},
		{"kind before body", store.AppendReportInput{Kind: "opinion", Body: " "}, "invalid_report_kind"},
		{"body before evidence", store.AppendReportInput{Body: " \n", EvidenceRefs: []string{" "}}, "invalid_body"},
		{"body over 9000", store.AppendReportInput{Body: *long(9001)}, "invalid_body"},
		{"evidence count before confidence", store.AppendReportInput{EvidenceRefs: many, Confidence: ptr("certain")}, "invalid_evidence_refs"},
		{"evidence entry before confidence", store.AppendReportInput{EvidenceRefs: []string{"\t"}, Confidence: ptr("certain")}, "invalid_evidence_ref"},
		{"confidence before basis", store.AppendReportInput{Confidence: ptr("certain"), ConfidenceBasis: long(2001)}, "invalid_report_confidence"},
		{"basis before limits", store.AppendReportInput{ConfidenceBasis: long(2001), Limits: long(2001)}, "invalid_confidence_basis"},
		{"limits before relation", store.AppendReportInput{Limits: long(2001), Relation: ptr("likes")}, "invalid_limits"},
		{"relation before target", store.AppendReportInput{Relation: ptr("likes"), TargetReportID: ptr("-")}, "invalid_report_relation"},
		{"target before authority", store.AppendReportInput{TargetReportID: ptr("-"), AuthorityScope: long(1001)}, "invalid_target_report_id"},
		{"scope before basis", store.AppendReportInput{AuthorityScope: long(1001), AuthorityBasis: long(2001)}, "invalid_authority_scope"},
		{"authority basis before key", store.AppendReportInput{AuthorityBasis: long(2001), IdempotencyKey: "bad key"}, "invalid_authority_basis"},
		{"key after every field", store.AppendReportInput{IdempotencyKey: "bad key"}, "invalid_idempotency_key"},
		{"then the credential", store.AppendReportInput{}, "session_auth_failed"},
	}
	before := f.footprint()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			if in.Kind == "" {
				in.Kind = "observation"
			}
			if in.Body == "" {
				in.Body = "x"
			}
			if in.IdempotencyKey == "" {
				in.IdempotencyKey = "k"
			}
			_, err := answerJSON(f.s.AppendReport(f.ctx, bad, in))
			wantCode(t, err, c.code)
		})
	}
	if after := f.footprint(); after != before {
		t.Fatalf("refused reports wrote something: %+v -> %+v", before, after)
	}
}

// TestAppendReportValidatesInContractOrder proves the in-transaction order of
// docs/contract.md#report-append-order (task, recipient, relation/target,
// authority, evidence), the refusal details, and that a refusal writes
// nothing at all.
func TestAppendReportValidatesInContractOrder(t *testing.T) {
	f := newReportFixture(t)
	f.task(f.a, "task-1")
	f.task(f.a, "task-2")
	base := f.post(f.a, store.AppendReportInput{TaskID: ptr("task-1"), Kind: "observation", Body: "Baseline"})
	foreign := f.post(f.other, store.AppendReportInput{Kind: "observation", Body: "Elsewhere"})
	f.task(f.other, "task-x")
	task1 := ptr("task-1")
	cases := []struct {
		name    string
		as      store.StartedSession
		in      store.AppendReportInput
		code    string
		details map[string]any
	}{
		{"task before recipient", f.b, store.AppendReportInput{TaskID: ptr("task-missing"), ToSessionID: ptr("session_missing")},
			"task_not_found", map[string]any{"task_id": "task-missing"}},
		{"task of another workspace", f.b, store.AppendReportInput{TaskID: ptr("task-x")}, "task_not_found", nil},
		{"recipient before relation", f.b, store.AppendReportInput{ToSessionID: ptr("session_missing"), TargetReportID: &base.ID},
			"session_not_found", nil},
		{"recipient in another workspace", f.b, store.AppendReportInput{ToSessionID: &f.other.Session.ID}, "report_target_mismatch", nil},
		{"informs may not target", f.a, store.AppendReportInput{TaskID: task1, TargetReportID: &base.ID, Kind: "decision"},
			"invalid_report_relation", nil},
		{"other relations need a target", f.b, store.AppendReportInput{Relation: ptr("challenges"), Kind: "decision"},
			"report_target_required", nil},
		{"unknown target", f.b, store.AppendReportInput{Relation: ptr("supports"), TargetReportID: ptr("report_missing")},
			"report_not_found", nil},
		{"target in another workspace", f.b, store.AppendReportInput{Relation: ptr("supports"), TargetReportID: &foreign.ID},
			"report_target_mismatch", nil},
		{"target of another task", f.b, store.AppendReportInput{TaskID: ptr("task-2"), Relation: ptr("challenges"), TargetReportID: &base.ID},
			"report_task_mismatch", map[string]any{"target_task_id": "task-1", "report_task_id": "task-2"}},
		{"task-less report on a task's report", f.b, store.AppendReportInput{Relation: ptr("challenges"), TargetReportID: &base.ID},
			"report_task_mismatch", map[string]any{"target_task_id": "task-1", "report_task_id": nil}},
		{"only the author corrects", f.b, store.AppendReportInput{TaskID: task1, Relation: ptr("corrects"), TargetReportID: &base.ID},
			"report_author_mismatch", nil},
		{"only the author withdraws", f.b, store.AppendReportInput{TaskID: task1, Relation: ptr("withdraws"), TargetReportID: &base.ID},
			"report_author_mismatch", nil},
		{"only the author supersedes", f.b, store.AppendReportInput{TaskID: task1, Relation: ptr("supersedes"), TargetReportID: &base.ID},
			"report_author_mismatch", nil},
		{"resolves needs a challenge", f.a, store.AppendReportInput{TaskID: task1, Relation: ptr("resolves"), TargetReportID: &base.ID},
			"invalid_report_relation", nil},
		{"authority before evidence", f.b, store.AppendReportInput{Kind: "decision", AuthorityScope: ptr("api"), EvidenceRefs: []string{"report:"}},
			"decision_authority_required", nil},
		{"blank authority is absent", f.b, store.AppendReportInput{Kind: "decision", AuthorityScope: ptr("api"), AuthorityBasis: ptr("  ")},
			"decision_authority_required", nil},
		{"malformed evidence", f.b, store.AppendReportInput{EvidenceRefs: []string{"report:"}}, "invalid_evidence_ref", nil},
		{"dangling evidence", f.b, store.AppendReportInput{EvidenceRefs: []string{"report:" + foreign.ID}},
			"evidence_not_found", map[string]any{"reference": "report:" + foreign.ID}},
	}
	before := f.footprint()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			if in.Kind == "" {
				in.Kind = "observation"
			}
			in.Body = "x"
			_, err := f.append(c.as, in)
			ce := wantCode(t, err, c.code)
			for k, want := range c.details {
				if got, ok := ce.Detail(k); !ok || got != want {
					t.Errorf("detail %s = %v (present %v), want %v", k, got, ok, want)
				}
			}
		})
	}
	if after := f.footprint(); after != before {
		t.Fatalf("refused reports wrote something: %+v -> %+v", before, after)
	}
}

// TestAppendReportJournalsBeforeStoring proves a report is written as its
// report.posted event first and then a row pointing at that event, with the
// defaults of docs/contract.md#idempotency-receipts and the session as
// author.
func TestAppendReportJournalsBeforeStoring(t *testing.T) {
	f := newReportFixture(t)
	f.task(f.a, "topic")
	seed := f.post(f.b, store.AppendReportInput{Kind: "observation", Body: "seed", TaskID: ptr("topic")})
	r := f.post(f.a, store.AppendReportInput{
		TaskID: ptr(" topic "), ToSessionID: &f.b.Session.ID, Kind: "proposal", Body: strings.Repeat("b", 9000),
		EvidenceRefs: []string{"report:" + seed.ID, " report:" + seed.ID}, ConfidenceBasis: ptr("  "),
		Relation: ptr("supports"), TargetReportID: &seed.ID,
	})
	if r.EventSequence != seed.EventSequence+1 || !strings.HasPrefix(r.ID, "report_") {
		t.Fatalf("report %s at sequence %d after seed at %d", r.ID, r.EventSequence, seed.EventSequence)
	}
	stored, ok, err := f.storedReport(r.ID)
	if err != nil || !ok {
		t.Fatalf("stored report: %v %v", ok, err)
	}
	if stored.CreatedAt != r.CreatedAt || stored.EventSequence != r.EventSequence || *stored.TaskID != "topic" ||
		stored.Confidence != "unknown" || stored.ConfidenceBasis != nil || stored.FromActor != "alice" ||
		*stored.FromSessionID != f.a.Session.ID || !slices.Equal(stored.EvidenceRefs, []string{"report:" + seed.ID}) {
		t.Fatalf("stored report %+v differs from result %+v", stored, r)
	}
	typ, session, payload := f.eventAt(r.WorkspaceID, r.EventSequence)
	if typ != "report.posted" || session.String != f.a.Session.ID {
		t.Fatalf("event %s by %v", typ, session)
	}
	wantKeys := []string{"authority_basis", "authority_scope", "body", "confidence", "confidence_basis", "evidence_refs",
		"kind", "limits", "relation", "target_report_id", "task_id", "to_session_id"}
	var keys []string
	for k := range payload {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	if !slices.Equal(keys, wantKeys) || payload["relation"] != "supports" || payload["target_report_id"] != seed.ID ||
		payload["to_session_id"] != f.b.Session.ID || payload["confidence_basis"] != nil {
		t.Fatalf("payload %v", payload)
	}
	var entity string
	if err := readPool(f.s).QueryRow("SELECT entity_id FROM events WHERE workspace_id = ? AND sequence = ?",
		r.WorkspaceID, r.EventSequence).Scan(&entity); err != nil || entity != r.ID {
		t.Fatalf("event entity %q, %v; want %s", entity, err, r.ID)
	}
	if ok, err := f.s.VerifyJournal(f.ctx, r.WorkspaceID); err != nil || !ok {
		t.Fatalf("journal no longer verifies: %v %v", ok, err)
	}
}

// TestAppendReportReceiptHashesTheContractRequest proves the receipt is
// filed under the session with the exact report.append.v2 request object.
func TestAppendReportReceiptHashesTheContractRequest(t *testing.T) {
	f := newReportFixture(t)
	v := loadReportVectors(t)
	f.post(f.a, store.AppendReportInput{IdempotencyKey: " r1 ", Kind: "observation", Body: "  Flaky on CI  "})
	var op, hash string
	err := readPool(f.s).QueryRow("SELECT operation, request_hash FROM mutations WHERE actor = ? AND idempotency_key = 'r1'",
		"session:"+f.a.Session.ID).Scan(&op, &hash)
	if err != nil {
		t.Fatalf("read receipt: %v", err)
	}
	sum := sha256.Sum256([]byte(v.ReportRequest))
	if op != "report.append.v2" || hash != hex.EncodeToString(sum[:]) {
		t.Fatalf("receipt %s %s; want report.append.v2 %x", op, hash, sum)
	}
}

// TestAppendReportRetries proves an exact retry returns the stored result
// without writing, and a changed request under the same key is refused.
func TestAppendReportRetries(t *testing.T) {
	f := newReportFixture(t)
	in := store.AppendReportInput{IdempotencyKey: "r8", Kind: "observation", Body: "General note"}
	first, err := answerJSON(f.s.AppendReport(f.ctx, cred(f.b), in))
	if err != nil {
		t.Fatal(err)
	}
	before := f.footprint()
	again, err := answerJSON(f.s.AppendReport(f.ctx, cred(f.b), in))
	if err != nil || string(again) != string(first) {
		t.Fatalf("replay = %s, %v; want %s", again, err, first)
	}
	in.Body = "Another note"
	_, err = answerJSON(f.s.AppendReport(f.ctx, cred(f.b), in))
	if ce := wantCode(t, err, "idempotency_conflict"); ce != nil {
		if op, _ := ce.Detail("operation"); op != "report.append.v2" {
			t.Errorf("conflict operation %v", op)
		}
	}
	if after := f.footprint(); after != before {
		t.Fatalf("retries wrote something: %+v -> %+v", before, after)
	}
}

// TestAppendReportAddressingIsRouting proves a report may be addressed to
// its own author or to a session that has ended.
func TestAppendReportAddressingIsRouting(t *testing.T) {
	f := newReportFixture(t)
	if _, err := f.s.EndSession(f.ctx, cred(f.b), nil); err != nil {
		t.Fatalf("end session: %v", err)
	}
	for _, to := range []string{f.a.Session.ID, f.b.Session.ID} {
		r := f.post(f.a, store.AppendReportInput{ToSessionID: &to, Kind: "observation", Body: "for you"})
		if r.ToSessionID == nil || *r.ToSessionID != to {
			t.Fatalf("to_session_id = %v, want %s", r.ToSessionID, to)
		}
	}
}

// TestAppendReportInternalKeepsGivenEvidenceOrder proves the internal
// writer (used for completion and review reports) stores and journals the
// references in the order given, without validating them.
func TestAppendReportInternalKeepsGivenEvidenceOrder(t *testing.T) {
	f := newReportFixture(t)
	refs := []string{"report:zzz", "event:missing", "report:aaa"}
	var r store.Report
	err := rawWrite(f.ctx, f.s, func(tx *Tx) error {
		sess, _, err := store.FindSession(f.ctx, tx, f.a.Session.ID)
		if err != nil {
			return err
		}
		r, err = f.s.AppendReportInternal(f.ctx, tx, sess, store.ReportDraft{
			Kind: "observation", Body: "done", EvidenceRefs: refs, Confidence: "unknown", Relation: "informs",
			AuthorityScope: ptr("local_task_coordination_review"),
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	stored, _, err := f.storedReport(r.ID)
	if err != nil || !slices.Equal(stored.EvidenceRefs, refs) || !slices.Equal(r.EvidenceRefs, refs) {
		t.Fatalf("stored refs %v (%v), result %v; want %v", stored.EvidenceRefs, err, r.EvidenceRefs, refs)
	}
	_, _, payload := f.eventAt(r.WorkspaceID, r.EventSequence)
	got, _ := payload["evidence_refs"].([]any)
	if len(got) != 3 || got[0] != refs[0] || got[2] != refs[2] {
		t.Fatalf("journaled refs %v; want %v", got, refs)
	}
}

// TestListReportsFiltersAndPages proves collab_report_list's filters,
// ordering, paging and refusals.
func TestListReportsFiltersAndPages(t *testing.T) {
	f := newReportFixture(t)
	f.task(f.a, "topic")
	r1 := f.post(f.a, store.AppendReportInput{TaskID: ptr("topic"), Kind: "observation", Body: "1"})
	r2 := f.post(f.b, store.AppendReportInput{ToSessionID: &f.a.Session.ID, Kind: "observation", Body: "2"})
	r3 := f.post(f.b, store.AppendReportInput{TaskID: ptr("topic"), Kind: "inference", Body: "3", Relation: ptr("supports"), TargetReportID: &r1.ID})
	f.post(f.other, store.AppendReportInput{Kind: "observation", Body: "elsewhere"})
	ws := f.a.Workspace.ID
	n := func(v int64) *int64 { return &v }
	cases := []struct {
		name string
		in   store.ListReportsInput
		want []string
		code string
	}{
		{"all in journal order", store.ListReportsInput{}, []string{r1.ID, r2.ID, r3.ID}, ""},
		{"by task", store.ListReportsInput{TaskID: ptr(" topic ")}, []string{r1.ID, r3.ID}, ""},
		{"by recipient", store.ListReportsInput{ToSessionID: &f.a.Session.ID}, []string{r2.ID}, ""},
		{"after a sequence", store.ListReportsInput{AfterEventSequence: &r1.EventSequence}, []string{r2.ID, r3.ID}, ""},
		{"limited", store.ListReportsInput{Limit: n(1)}, []string{r1.ID}, ""},
		{"limit 500", store.ListReportsInput{Limit: n(500)}, []string{r1.ID, r2.ID, r3.ID}, ""},
		{"negative cursor", store.ListReportsInput{AfterEventSequence: n(-1)}, nil, "invalid_cursor"},
		{"limit 0", store.ListReportsInput{Limit: n(0)}, nil, "invalid_limit"},
		{"limit 501", store.ListReportsInput{Limit: n(501)}, nil, "invalid_limit"},
		{"cursor before limit", store.ListReportsInput{AfterEventSequence: n(-1), Limit: n(0)}, nil, "invalid_cursor"},
		{"bad task id", store.ListReportsInput{TaskID: ptr("a b"), ToSessionID: ptr("-")}, nil, "invalid_task_id"},
		{"bad recipient id", store.ListReportsInput{ToSessionID: ptr("-")}, nil, "invalid_to_session_id"},
		{"unknown workspace first", store.ListReportsInput{WorkspaceID: "ws_missing", Limit: n(0)}, nil, "workspace_not_found"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			if in.WorkspaceID == "" {
				in.WorkspaceID = ws
			}
			got, err := f.s.ListReports(context.Background(), in)
			if c.code != "" {
				wantCode(t, err, c.code)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []string
			for _, r := range got {
				ids = append(ids, r.ID)
			}
			if !slices.Equal(ids, c.want) {
				t.Fatalf("ids %v, want %v", ids, c.want)
			}
		})
	}
}
