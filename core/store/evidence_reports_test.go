package store_test

import (
	"testing"

	"github.com/agenttool/collab/core/store"
)

// evidenceWorld is a report fixture with one artifact and one checkpoint
// recorded in the main workspace.
type evidenceWorld struct {
	*reportFixture
	artifactID, eventID, reportID, foreignEvent string
	digest                                      string
}

func newEvidenceWorld(t *testing.T) evidenceWorld {
	f := newReportFixture(t)
	v := loadReportVectors(t)
	w := evidenceWorld{reportFixture: f, artifactID: "artifact_fixture", digest: v.CheckpointDigest}
	if _, err := answerJSON(f.s.CreateTask(f.ctx, store.LabelActor("lead"), store.CreateTaskInput{
		WorkspaceID: f.a.Workspace.ID, IdempotencyKey: "legacy", TaskID: ptr("legacy-1"), Title: "Legacy",
	})); err != nil {
		t.Fatalf("create legacy task: %v", err)
	}
	err := rawWrite(f.ctx, f.s, func(tx *Tx) error {
		if _, err := tx.ExecContext(f.ctx, "UPDATE tasks SET base_checkpoint_json = ? WHERE id = 'legacy-1'", v.Checkpoint); err != nil {
			return err
		}
		_, err := tx.ExecContext(f.ctx, `INSERT INTO artifacts (id, workspace_id, task_id, kind, uri, attached_by, attached_at)
VALUES (?, ?, 'legacy-1', 'file', 'src/a.go', 'lead', '2026-07-21T12:00:00.000Z')`, w.artifactID, f.a.Workspace.ID)
		return err
	})
	if err != nil {
		t.Fatalf("record artifact and checkpoint: %v", err)
	}
	w.reportID = f.post(f.a, store.AppendReportInput{Kind: "observation", Body: "seen"}).ID
	for _, q := range []struct {
		ws  string
		out *string
	}{{f.a.Workspace.ID, &w.eventID}, {f.other.Workspace.ID, &w.foreignEvent}} {
		if err := readPool(f.s).QueryRow("SELECT id FROM events WHERE workspace_id = ? ORDER BY sequence LIMIT 1", q.ws).Scan(q.out); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// TestResolveEvidenceChecksSyntaxThenExistence proves
// docs/contract.md#evidence-references: the kind is the text before the first
// colon, the id must not be empty, only four kinds exist, each must name
// something in this workspace (a checkpoint by the sha256 of its canonical
// JSON), and the first bad reference in the given order decides the refusal.
func TestResolveEvidenceChecksSyntaxThenExistence(t *testing.T) {
	w := newEvidenceWorld(t)
	cases := []struct {
		name    string
		refs    []string
		code    string
		missing string
	}{
		{"no references", nil, "", ""},
		{"every kind resolves", []string{"artifact:" + w.artifactID, "event:" + w.eventID, "report:" + w.reportID,
			"checkpoint:" + w.digest}, "", ""},
		{"no prefix", []string{"README.md"}, "invalid_evidence_ref", ""},
		{"empty prefix", []string{":" + w.eventID}, "invalid_evidence_ref", ""},
		{"empty id", []string{"report:"}, "invalid_evidence_ref", ""},
		{"unknown kind", []string{"file:src/a.go"}, "invalid_evidence_ref", ""},
		{"kinds are case-sensitive", []string{"Event:" + w.eventID}, "invalid_evidence_ref", ""},
		{"id keeps later colons", []string{"event:" + w.eventID + ":x"}, "evidence_not_found", "event:" + w.eventID + ":x"},
		{"missing artifact", []string{"artifact:artifact_missing"}, "evidence_not_found", "artifact:artifact_missing"},
		{"event of another workspace", []string{"event:" + w.foreignEvent}, "evidence_not_found", "event:" + w.foreignEvent},
		{"unknown checkpoint digest", []string{"checkpoint:" + w.digest[:63] + "0"}, "evidence_not_found", "checkpoint:" + w.digest[:63] + "0"},
		{"first bad reference decides", []string{"report:report_missing", "nonsense"}, "evidence_not_found", "report:report_missing"},
		{"syntax is checked in order too", []string{"nonsense", "report:report_missing"}, "invalid_evidence_ref", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := w.s.Engine().Read(w.ctx, func(tx store.Tx) error {
				return store.ResolveEvidence(w.ctx, tx, w.a.Workspace.ID, c.refs)
			})
			if c.code == "" {
				if err != nil {
					t.Fatalf("refs %v refused: %v", c.refs, err)
				}
				return
			}
			ce := wantCode(t, err, c.code)
			if got, _ := ce.Detail("reference"); c.missing != "" && got != c.missing {
				t.Fatalf("reference detail %v, want %s", got, c.missing)
			}
		})
	}
}

// TestStoredCheckpointDigestMatchesTheContractVector proves the digest is
// sha256 of canonical JSON, also for stored text that is not canonical.
func TestStoredCheckpointDigestMatchesTheContractVector(t *testing.T) {
	v := loadReportVectors(t)
	for _, text := range []string{v.Checkpoint,
		`{"worktree_id":"wt_000000000000000000000000","head_sha":null, "dirty":null,"captured_at":"2026-07-21T12:00:00.000Z","branch":null}`} {
		got, err := store.StoredCheckpointDigest(text)
		if err != nil || got != v.CheckpointDigest {
			t.Errorf("digest of %s = %s, %v; want %s", text, got, err, v.CheckpointDigest)
		}
	}
}

// TestAppendReportSortsEvidenceBeforeResolving proves caller references are
// trimmed, de-duplicated and sorted, so resolution order is sorted order.
func TestAppendReportSortsEvidenceBeforeResolving(t *testing.T) {
	w := newEvidenceWorld(t)
	_, err := w.append(w.b, store.AppendReportInput{Kind: "observation", Body: "x",
		EvidenceRefs: []string{"report:report_missing", " artifact:artifact_missing "}})
	ce := wantCode(t, err, "evidence_not_found")
	if got, _ := ce.Detail("reference"); got != "artifact:artifact_missing" {
		t.Fatalf("reference %v; want the first in sorted order", got)
	}
	r := w.post(w.b, store.AppendReportInput{Kind: "observation", Body: "x",
		EvidenceRefs: []string{"report:" + w.reportID, "checkpoint:" + w.digest, " report:" + w.reportID + " "}})
	if len(r.EvidenceRefs) != 2 || r.EvidenceRefs[0] != "checkpoint:"+w.digest {
		t.Fatalf("stored refs %v", r.EvidenceRefs)
	}
}
