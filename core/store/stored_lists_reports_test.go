package store_test

import (
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestStoredListsKeepTheReferenceBytes proves that moving the list
// encodings behind the engine kept the stored text: a report's evidence
// references (free text, in the order given) and a presence hint's
// capabilities (sorted, lower-cased symbols) are stored as JSON.stringify
// writes them, with no HTML escaping and U+2028 left raw.
func TestStoredListsKeepTheReferenceBytes(t *testing.T) {
	f := newReportFixture(t)
	refs := []string{"event:z<a>&\u2028", "report:é", "artifact:a"}
	var r store.Report
	err := rawWrite(f.ctx, f.s, func(tx *Tx) error {
		sess, _, err := tx.Session(f.ctx, f.a.Session.ID)
		if err != nil {
			return err
		}
		r, err = f.s.AppendReportInternal(f.ctx, tx, sess, store.ReportDraft{Kind: "observation", Body: "b",
			EvidenceRefs: refs, Confidence: "unknown", Relation: "informs"})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	p, err := f.s.JoinPresence(f.ctx, store.JoinInput{WorkspaceID: f.a.Workspace.ID, ClientInstanceID: "client-bytes",
		ActorLabel: "alice", RuntimeKind: "codex", Capabilities: []string{"Tests.Run", "code:review", "a-b_c"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, query, id, want string
	}{
		{"evidence references", "SELECT evidence_refs_json FROM reports WHERE id = ?", r.ID,
			"[\"event:z<a>&\u2028\",\"report:é\",\"artifact:a\"]"},
		{"declared capabilities", "SELECT declared_capabilities_json FROM sessions WHERE id = ?", p.ID,
			`["a-b_c","code:review","tests.run"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got string
			if err := readPool(f.s).QueryRowContext(f.ctx, c.query, c.id).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("stored %q, want %q", got, c.want)
			}
		})
	}
}
