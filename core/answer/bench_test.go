package answer

import (
	"encoding/json"
	"strings"
	"testing"
)

// benchTask is an answer the size of a real task (about 1.4 KB of JSON).
func benchTask() one {
	v := tricky
	v.Text = strings.Repeat("Parser step done; tokenizer tests green, docs pending review. ", 20)
	v.Paths = []string{"src/parser/**", "docs/parser.md", "cmd/tool/**", "internal/lexer/**"}
	return one{name: "task", v: v}
}

// BenchmarkRenderSingle is a {task} answer's rendering now: the member
// encoded once for the receipt, the answer wrapped around those bytes.
func BenchmarkRenderSingle(b *testing.B) {
	v := benchTask()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, _, err := Render("task.progress", &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeThenSplit is the same rendering as it was before: the
// whole answer ({task} was a map) encoded, then decoded to split out the
// receipt member.
func BenchmarkEncodeThenSplit(b *testing.B) {
	v := benchTask()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		whole, err := Encode(map[string]any{"task": v.v})
		if err != nil {
			b.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(whole, &m); err != nil {
			b.Fatal(err)
		}
		_ = m["task"]
	}
}
