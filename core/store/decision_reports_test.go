package store_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestRecordDecisionLegacyWritesRowEventAndReceipt proves the legacy path:
// a decisions row, a decision.recorded event carrying the full decision
// with no session, a receipt over the request object of
// docs/contract.md#idempotency-receipts, exact replays and
// refused changes under the same key.
func TestRecordDecisionLegacyWritesRowEventAndReceipt(t *testing.T) {
	f := newReportFixture(t)
	v := loadReportVectors(t)
	ws := f.a.Workspace.ID
	in := store.RecordDecisionInput{WorkspaceID: ws, IdempotencyKey: "d1", Topic: " Branching ",
		Decision: "Trunk based", Rationale: ptr("   "), AuthorityScope: ptr("ignored in legacy mode")}
	raw, err := answerJSON(f.s.RecordDecision(f.ctx, store.LabelActor(" lead "), in))
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Decision store.Decision }
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	d := out.Decision
	if !strings.HasPrefix(d.ID, "decision_") || d.Topic != "Branching" || d.RecordedBy != "lead" || d.Rationale != nil {
		t.Fatalf("decision %+v", d)
	}
	head, _ := f.s.Workspace(f.ctx, ws)
	typ, session, payload := f.eventAt(ws, head.EventHeadSequence)
	recorded, _ := payload["decision"].(map[string]any)
	if typ != "decision.recorded" || session.Valid || recorded["id"] != d.ID || recorded["rationale"] != nil ||
		recorded["recorded_at"] != d.RecordedAt || len(recorded) != 7 {
		t.Fatalf("event %s session %v payload %v", typ, session, payload)
	}
	var op, hash string
	if err := readPool(f.s).QueryRow("SELECT operation, request_hash FROM mutations WHERE actor = 'lead' AND idempotency_key = 'd1'").
		Scan(&op, &hash); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(strings.ReplaceAll(v.DecisionRequest, "$WS", ws)))
	if op != "decision.record" || hash != hex.EncodeToString(sum[:]) {
		t.Fatalf("receipt %s %s", op, hash)
	}
	before := f.footprint()
	again, err := answerJSON(f.s.RecordDecision(f.ctx, store.LabelActor(" lead "), in))
	if err != nil || string(again) != string(raw) {
		t.Fatalf("replay %s, %v; want %s", again, err, raw)
	}
	in.Decision = "Release branches"
	_, err = answerJSON(f.s.RecordDecision(f.ctx, store.LabelActor(" lead "), in))
	wantCode(t, err, "idempotency_conflict")
	if after := f.footprint(); after != before {
		t.Fatalf("retries wrote something: %+v -> %+v", before, after)
	}
}

// TestRecordDecisionLegacyValidationOrder proves the legacy inputs are
// checked actor, key, topic, decision, rationale, then the workspace.
func TestRecordDecisionLegacyValidationOrder(t *testing.T) {
	f := newReportFixture(t)
	long := func(n int) string { return strings.Repeat("x", n) }
	cases := []struct {
		name  string
		actor string
		in    store.RecordDecisionInput
		code  string
	}{
		{"actor first", " ", store.RecordDecisionInput{IdempotencyKey: "bad key", WorkspaceID: "ws_missing"}, "invalid_actor"},
		{"key before topic", "", store.RecordDecisionInput{IdempotencyKey: "bad key", Topic: " "}, "invalid_idempotency_key"},
		{"topic before decision", "", store.RecordDecisionInput{Topic: long(501), Decision: " "}, "invalid_topic"},
		{"decision before rationale", "", store.RecordDecisionInput{Decision: long(4001), Rationale: ptr(long(4001))}, "invalid_decision"},
		{"rationale", "", store.RecordDecisionInput{Rationale: ptr("a\x00b"), WorkspaceID: "ws_missing"}, "invalid_rationale"},
		{"then the workspace", "", store.RecordDecisionInput{WorkspaceID: "ws_missing"}, "workspace_not_found"},
	}
	before := f.footprint()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			fill := func(p *string, v string) {
				if *p == "" {
					*p = v
				}
			}
			fill(&in.WorkspaceID, f.a.Workspace.ID)
			actor := c.actor
			fill(&actor, "lead")
			fill(&in.IdempotencyKey, "k")
			fill(&in.Topic, "Topic")
			fill(&in.Decision, "Decision")
			_, err := answerJSON(f.s.RecordDecision(f.ctx, store.LabelActor(actor), in))
			wantCode(t, err, c.code)
		})
	}
	if after := f.footprint(); after != before {
		t.Fatalf("refusals wrote something: %+v -> %+v", before, after)
	}
}

// TestDecisionBodyUsesRawPieces proves the session body is composed from
// the untrimmed inputs and only a non-empty rationale adds its line.
func TestDecisionBodyUsesRawPieces(t *testing.T) {
	cases := []struct {
		topic, decision string
		rationale       *string
		want            string
	}{
		{"Release", "Ship on Friday", ptr("QA signed off"), "Release: Ship on Friday\nRationale: QA signed off"},
		{"Release", "Ship", nil, "Release: Ship"},
		{"Release", "Ship", ptr(""), "Release: Ship"},
		{" Release ", " Ship ", ptr("  "), " Release :  Ship \nRationale:   "},
	}
	for _, c := range cases {
		got := store.DecisionBody(store.RecordDecisionInput{Topic: c.topic, Decision: c.decision, Rationale: c.rationale})
		if got != c.want {
			t.Errorf("decisionBody(%q, %q, %v) = %q, want %q", c.topic, c.decision, c.rationale, got, c.want)
		}
	}
}

// TestRecordDecisionForSessionBecomesADecisionReport proves the bound path:
// a task-less decision report (confidence unknown, relation informs) with
// a trimmed composed body, refused without both authority fields.
func TestRecordDecisionForSessionBecomesADecisionReport(t *testing.T) {
	f := newReportFixture(t)
	in := store.RecordDecisionInput{IdempotencyKey: "bd1", Topic: " Release", Decision: "Ship ", Rationale: ptr(" "),
		AuthorityScope: ptr("release timing")}
	before := f.footprint()
	_, err := answerJSON(f.s.RecordDecision(f.ctx, store.SessionActor(cred(f.a)), in))
	wantCode(t, err, "decision_authority_required")
	in.AuthorityBasis = ptr("\t")
	_, err = answerJSON(f.s.RecordDecision(f.ctx, store.SessionActor(cred(f.a)), in))
	wantCode(t, err, "decision_authority_required")
	if after := f.footprint(); after != before {
		t.Fatalf("refusals wrote something: %+v -> %+v", before, after)
	}
	in.AuthorityBasis = ptr(" Delegated by the maintainer ")
	raw, err := answerJSON(f.s.RecordDecision(f.ctx, store.SessionActor(cred(f.a)), in))
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Report store.Report }
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	r := out.Report
	if r.Kind != "decision" || r.Body != "Release: Ship \nRationale:" || r.Confidence != "unknown" ||
		r.Relation != "informs" || r.TaskID != nil || r.FromActor != "alice" ||
		*r.AuthorityBasis != "Delegated by the maintainer" || len(r.EvidenceRefs) != 0 {
		t.Fatalf("report %+v", r)
	}
	if got := f.footprint(); got.decisions != 0 || got.reports != before.reports+1 {
		t.Fatalf("footprint %+v after %+v", got, before)
	}
	var op string
	if err := readPool(f.s).QueryRow("SELECT operation FROM mutations WHERE idempotency_key = 'bd1'").Scan(&op); err != nil ||
		op != "report.append.v2" {
		t.Fatalf("receipt operation %q, %v", op, err)
	}
}
