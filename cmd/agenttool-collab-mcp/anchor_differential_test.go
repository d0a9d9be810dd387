package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// anchorCasesDir holds the hostile ledgers both implementations read, as
// templates (see expandLedger), and the reference's answers to them, which
// core/anchor's unit tests check without a reference.
const anchorCasesDir = "../../core/anchor/testdata/reference"

// updateAnchorGoldens rewrites the reference's answers (the .want files)
// from a run of the reference.
const updateAnchorGoldens = "UPDATE_ANCHOR_GOLDENS"

// TestDifferentialAnchorStatusOnHostileLedgers has this server and the
// reference answer collab_anchor_status over the same hostile ledgers
// (clamps through surrogate pairs, lone-surrogate escapes, ill-formed
// UTF-8, nesting a million levels deep, number edges) and requires the
// same text mirror byte for byte and the same structuredContent value
// (compared canonically: this server's JSON-RPC envelope escapes <, >, &,
// U+2028 and U+2029, as the SDK's encoder does, where the reference
// writes them raw), apart from the two prose fields and the ids each
// journal made up. The reference's own structuredContent bytes are kept as
// the .want files.
func TestDifferentialAnchorStatusOnHostileLedgers(t *testing.T) {
	ref := referenceImplementation(t)
	cases, err := filepath.Glob(filepath.Join(anchorCasesDir, "*.ledger"))
	if err != nil || len(cases) == 0 {
		t.Fatalf("no ledger cases in %s: %v", anchorCasesDir, err)
	}
	var answers [2]map[string]anchorAnswer
	for i, impl := range []implementation{thisImplementation(), ref} {
		answers[i] = anchorAnswers(t, impl, cases)
	}
	differ := 0
	for _, file := range cases {
		name := strings.TrimSuffix(filepath.Base(file), ".ledger")
		ours, theirs := answers[0][name], answers[1][name]
		if ours.structured != theirs.structured || ours.text != theirs.text {
			differ++
			t.Errorf("%s:\n collab:    %s\n           %q\n reference: %s\n           %q", name, ours.structured, ours.text,
				theirs.structured, theirs.text)
		}
		if os.Getenv(updateAnchorGoldens) == "1" {
			if err := os.WriteFile(filepath.Join(anchorCasesDir, name+".want"), []byte(theirs.raw+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("compared %d hostile ledgers, %d differ", len(cases), differ)
}

// anchorAnswer is one normalised collab_anchor_status answer: its
// structuredContent canonicalised and as sent, and its text mirror.
type anchorAnswer struct{ structured, raw, text string }

// anchorAnswers opens one workspace with impl and answers every ledger
// case against its head, keyed by case name.
func anchorAnswers(t *testing.T, impl implementation, cases []string) map[string]anchorAnswer {
	sb := newSandbox(t)
	ledger := filepath.Join(sb.root, "anchors.json")
	c, err := mcptest.Start(impl.argv, sb.env("AGENTOOL_COLLAB_ANCHOR_LEDGER="+ledger))
	if err != nil {
		t.Fatalf("%s: start: %v", impl.name, err)
	}
	defer c.Close()
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": sb.repo("main", nil), "actor": "a"}), "workspace.id")
	w := get(ok(t, c, "collab_workspace_status", map[string]any{"workspace_id": ws}), "workspace").(map[string]any)
	head := ledgerHead{ws, w["epoch_id"].(string), fmt.Sprint(w["event_head_sequence"]), w["event_head_hash"].(string)}
	out := map[string]anchorAnswer{}
	for _, file := range cases {
		tmpl, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(ledger, expandLedger(tmpl, head), 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := c.Call("collab_anchor_status", map[string]any{"workspace_id": ws})
		if err != nil {
			t.Fatalf("%s: %v", impl.name, err)
		}
		var wire struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(r.Raw, &wire); err != nil || r.IsError {
			t.Fatalf("%s %s: %s (%v)", impl.name, file, r.Raw, err)
		}
		canonical, err := canon.Canonicalize(wire.Result.StructuredContent)
		if err != nil {
			t.Fatalf("%s %s: structuredContent: %v", impl.name, file, err)
		}
		name := strings.TrimSuffix(filepath.Base(file), ".ledger")
		out[name] = anchorAnswer{head.normalize(string(canonical)), head.normalize(string(wire.Result.StructuredContent)),
			head.normalize(r.Text)}
	}
	return out
}

// ledgerHead is the journal head a ledger template is filled in with.
type ledgerHead struct{ workspace, epoch, sequence, hash string }

var deepMarker = regexp.MustCompile(`@(DEEP|OPEN):(\d+)@`)

// expandLedger fills a template: @WS@, @EPOCH@, @SEQ@ and @HASH@ become
// the head's values, @DEEP:n@ n nested empty arrays and @OPEN:n@ n
// unclosed opening brackets. (core/anchor's tests expand them alike.)
func expandLedger(tmpl []byte, h ledgerHead) []byte {
	s := strings.NewReplacer("@WS@", h.workspace, "@EPOCH@", h.epoch, "@SEQ@", h.sequence, "@HASH@", h.hash).Replace(string(tmpl))
	return []byte(deepMarker.ReplaceAllStringFunc(s, func(m string) string {
		parts := deepMarker.FindStringSubmatch(m)
		var n int
		fmt.Sscan(parts[2], &n)
		if parts[1] == "OPEN" {
			return strings.Repeat("[", n)
		}
		return strings.Repeat("[", n) + strings.Repeat("]", n)
	}))
}

// anchorProseField matches the two prose members in compact or indented
// JSON; each implementation words them itself.
var anchorProseField = regexp.MustCompile(`"(scope_note|reason)":( ?)"(?:[^"\\]|\\.)*"`)

// normalize replaces the head's values by their placeholders and the
// prose by "<prose>".
func (h ledgerHead) normalize(s string) string {
	s = anchorProseField.ReplaceAllString(s, `"$1":$2"<prose>"`)
	s = strings.NewReplacer(h.workspace, "@WS@", h.epoch, "@EPOCH@", h.hash, "@HASH@").Replace(s)
	for _, key := range []string{"head_sequence", "sequence"} {
		s = strings.ReplaceAll(s, `"`+key+`":`+h.sequence+`,`, `"`+key+`":@SEQ@,`)
		s = strings.ReplaceAll(s, `"`+key+`": `+h.sequence+`,`, `"`+key+`": @SEQ@,`)
	}
	return s
}
