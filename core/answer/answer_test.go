package answer

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// item is a stand-in for a store record: strings that JSON encoders
// disagree on (HTML characters, U+2028/U+2029, non-ASCII), a null and a
// nested array.
type item struct {
	ID    string   `json:"id"`
	Text  string   `json:"text"`
	Note  *string  `json:"note"`
	Paths []string `json:"paths"`
	Count int64    `json:"count"`
}

var tricky = item{ID: "task_1", Text: "a <b> & c \u2028 line \u2029 para é 漢 \\u2028 \"q\"", Paths: []string{"src/<x>", "docs/&"}, Count: 9007199254740993}

type one struct {
	name string
	v    item
}

func (o one) Single() (string, any) { return o.name, o.v }

// MarshalJSON renders one the way a store answer struct with one tagged
// field renders.
func (o one) MarshalJSON() ([]byte, error) {
	return Encode(map[string]any{o.name: o.v})
}

type pair struct {
	Task  item `json:"task"`
	Other item `json:"artifact"`
}

// oldReceipt is how receipts were produced before this package: encode
// the whole answer, decode it to split out the member, keep its bytes.
func oldReceipt(t *testing.T, operation string, whole []byte) []byte {
	t.Helper()
	name, ok := Member(operation)
	if !ok {
		return whole
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(whole, &m); err != nil || len(m) != 1 {
		t.Fatalf("split %s: %v (%d members)", whole, err, len(m))
	}
	return m[name]
}

// TestRenderIsByteIdenticalToEncodeThenSplit: for every operation of the
// member table, rendering the member directly gives the receipt and the
// answer the encode-then-split route gave; whole-answer operations store
// the answer itself.
func TestRenderIsByteIdenticalToEncodeThenSplit(t *testing.T) {
	for op, name := range members {
		t.Run(op, func(t *testing.T) {
			v := one{name: name, v: tricky}
			whole, err := Encode(v)
			if err != nil {
				t.Fatal(err)
			}
			a, receipt, err := Render(op, &v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.JSON(), whole) {
				t.Errorf("answer\n%s\nwant\n%s", a.JSON(), whole)
			}
			if want := oldReceipt(t, op, whole); !bytes.Equal(receipt, want) {
				t.Errorf("receipt\n%s\nwant\n%s", receipt, want)
			}
			if got := Replay[one](op, receipt).JSON(); !bytes.Equal(got, whole) {
				t.Errorf("replay\n%s\nwant\n%s", got, whole)
			}
		})
	}
	for _, op := range []string{"artifact.attach", "artifact.attach.v2", "handoff.offer", "handoff.respond.v2", "task.review.v2"} {
		v := pair{Task: tricky, Other: tricky}
		a, receipt, err := Render(op, &v)
		if err != nil {
			t.Fatal(err)
		}
		whole, _ := Encode(v)
		if !bytes.Equal(a.JSON(), whole) || !bytes.Equal(receipt, whole) {
			t.Errorf("%s: answer %s receipt %s, want both %s", op, a.JSON(), receipt, whole)
		}
		if got := Replay[pair](op, receipt).JSON(); !bytes.Equal(got, whole) {
			t.Errorf("%s: replay %s, want %s", op, got, whole)
		}
	}
}

// TestEncodeWritesWhatJSONStringifyWrites: no HTML escaping, line and
// paragraph separators raw, no trailing newline.
func TestEncodeWritesWhatJSONStringifyWrites(t *testing.T) {
	got, err := Encode(map[string]string{"s": "<a&b>\u2028\u2029"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\"s\":\"<a&b>\u2028\u2029\"}"; string(got) != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	if _, err := Encode(func() {}); err == nil {
		t.Fatal("an unencodable value encoded")
	}
}

// TestRenderRefusesAnAnswerThatDoesNotMatchItsReceiptForm: a
// single-member operation needs a Single of its own member.
func TestRenderRefusesAnAnswerThatDoesNotMatchItsReceiptForm(t *testing.T) {
	p := pair{}
	if _, _, err := Render("task.claim", &p); err == nil || !strings.Contains(err.Error(), "not a single-member") {
		t.Errorf("pair as task.claim: %v", err)
	}
	if _, _, err := Render[pair]("artifact.attach", nil); err == nil {
		t.Error("a missing answer rendered")
	}
	o := one{name: "report", v: tricky}
	if _, _, err := Render("task.claim", &o); err == nil || !strings.Contains(err.Error(), "{report}") {
		t.Errorf("{report} as task.claim: %v", err)
	}
}

// TestValueIsThereOnlyForAFreshAnswer: a replay carries bytes only; Map
// keeps the bytes and maps the value.
func TestValueIsThereOnlyForAFreshAnswer(t *testing.T) {
	v := one{name: "task", v: tricky}
	fresh, _, err := Render("task.create", &v)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := fresh.Value(); !ok || fresh.Replayed() || got.v.ID != "task_1" {
		t.Errorf("fresh: %v %v %v", got, ok, fresh.Replayed())
	}
	replayed := Replay[one]("task.create", []byte(`{"id":"x"}`))
	if _, ok := replayed.Value(); ok || !replayed.Replayed() {
		t.Error("a replay has a value")
	}
	mapped := Map(fresh, func(o one) string { return o.v.ID })
	if got, ok := mapped.Value(); !ok || got != "task_1" || !bytes.Equal(mapped.JSON(), fresh.JSON()) {
		t.Errorf("mapped %q %v %s", got, ok, mapped.JSON())
	}
	if m := Map(replayed, func(o one) string { return o.v.ID }); !m.Replayed() || string(m.JSON()) != `{"task":{"id":"x"}}` {
		t.Errorf("mapped replay %s", m.JSON())
	}
	if Map[one, string](nil, nil) != nil {
		t.Error("Map of no answer is an answer")
	}
}

// TestReplayWrapsBareReceiptsAndKeepsWrappedOnes: the reference's bare
// receipts are wrapped; receipts this implementation once stored wrapped
// come back unchanged; whole-answer receipts come back as stored.
func TestReplayWrapsBareReceiptsAndKeepsWrappedOnes(t *testing.T) {
	cases := []struct{ op, stored, want string }{
		{"task.claim.v2", `{"id":"t","version":2}`, `{"task":{"id":"t","version":2}}`},
		{"task.claim.v2", `{"task":{"id":"t"}}`, `{"task":{"id":"t"}}`},
		{"report.append.v2", `{"id":"r"}`, `{"report":{"id":"r"}}`},
		{"session.leave", `{"id":"s"}`, `{"session":{"id":"s"}}`},
		{"decision.record", `{"id":"d"}`, `{"decision":{"id":"d"}}`},
		{"artifact.attach", `{"task":{"id":"t"},"artifact":{"id":"a"}}`, `{"task":{"id":"t"},"artifact":{"id":"a"}}`},
		{"handoff.respond", `{"handoff":{"id":"h"},"task":{"id":"t"}}`, `{"handoff":{"id":"h"},"task":{"id":"t"}}`},
	}
	for _, c := range cases {
		if got := Replay[one](c.op, []byte(c.stored)).JSON(); string(got) != c.want {
			t.Errorf("%s %s: got %s, want %s", c.op, c.stored, got, c.want)
		}
	}
}
