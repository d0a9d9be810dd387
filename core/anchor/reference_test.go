package anchor_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/anchor"
	"github.com/agenttool/collab/core/answer"
)

// TestCheckAnswersAsTheReference checks each hostile ledger of
// testdata/reference (a template, filled in with the test head) and
// requires the answer, rendered as the MCP face renders it, to equal the
// reference's answer (the .want file, written from a run of the reference
// by cmd/agenttool-collab-mcp's TestDifferentialAnchorStatusOnHostileLedgers
// with UPDATE_ANCHOR_GOLDENS=1) byte for byte, prose aside: lone surrogates
// come back as the same \udxxx escapes, a clamp through an emoji keeps its
// high surrogate, ill-formed UTF-8 reads as the reference's U+FFFD, and a
// member nested a million levels deep leaves the ledger readable.
func TestCheckAnswersAsTheReference(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "reference", "*.ledger"))
	if len(files) == 0 {
		t.Fatal("no testdata/reference cases")
	}
	head := testHead()
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".ledger")
		t.Run(name, func(t *testing.T) {
			tmpl, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want, err := os.ReadFile(strings.TrimSuffix(file, ".ledger") + ".want")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "collab-zerone-anchors.json")
			if err := os.WriteFile(path, fillLedger(tmpl, head), 0o600); err != nil {
				t.Fatal(err)
			}
			st, err := anchor.Check(context.Background(), path, head, newFakeJournal(t, journalSpec{}))
			if err != nil {
				t.Fatalf("Check: %v", err)
			}
			got, err := answer.Encode(st)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if g := placeholders(string(got), head); g != string(bytes.TrimSpace(want)) {
				t.Fatalf("answer differs from the reference's\n got %s\nwant %s", g, bytes.TrimSpace(want))
			}
		})
	}
}

var nestingMarker = regexp.MustCompile(`@(DEEP|OPEN):(\d+)@`)

// fillLedger expands a template: @WS@, @EPOCH@, @SEQ@, @HASH@ become the
// head's values, @DEEP:n@ n nested empty arrays, @OPEN:n@ n unclosed
// brackets (the differential test expands them alike).
func fillLedger(tmpl []byte, h anchor.Head) []byte {
	s := strings.NewReplacer("@WS@", h.WorkspaceID, "@EPOCH@", h.EpochID, "@SEQ@", strconv.FormatInt(h.Sequence, 10),
		"@HASH@", h.Hash).Replace(string(tmpl))
	return []byte(nestingMarker.ReplaceAllStringFunc(s, func(m string) string {
		parts := nestingMarker.FindStringSubmatch(m)
		n, _ := strconv.Atoi(parts[2])
		if parts[1] == "OPEN" {
			return strings.Repeat("[", n)
		}
		return strings.Repeat("[", n) + strings.Repeat("]", n)
	}))
}

var proseMember = regexp.MustCompile(`"(scope_note|reason)":"(?:[^"\\]|\\.)*"`)

// placeholders puts the template's placeholders back and the prose, which
// each implementation words itself, as "<prose>".
func placeholders(s string, h anchor.Head) string {
	s = proseMember.ReplaceAllString(s, `"$1":"<prose>"`)
	s = strings.NewReplacer(h.WorkspaceID, "@WS@", h.EpochID, "@EPOCH@", h.Hash, "@HASH@").Replace(s)
	for _, key := range []string{"head_sequence", "sequence"} {
		s = strings.ReplaceAll(s, fmt.Sprintf(`"%s":%d,`, key, h.Sequence), `"`+key+`":@SEQ@,`)
	}
	return s
}
