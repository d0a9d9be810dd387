package credfile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

// FuzzDecode feeds arbitrary bytes as credential-file content. Decoding
// must never panic; a refusal must be session_file_read_failed or
// session_file_invalid carrying only the read operation and never echoing
// the content; an accepted file must be JSON whose values respect the
// format's limits, and writing it back must read back unchanged (the
// canonical form is a fixed point). Seeds: every file of testdata/valid,
// testdata/invalid and testdata/unreadable, plus testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	for _, dir := range []string{"valid", "invalid", "unreadable"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := decode(data)
		if err != nil {
			checkDecodeRefusal(t, data, err)
			return
		}
		checkDecoded(t, data, c)
	})
}

func checkDecodeRefusal(t *testing.T, data []byte, err error) {
	t.Helper()
	ce, ok := collaberr.As(err)
	if !ok || (!collaberr.HasCode(err, CodeReadFailed) && !collaberr.HasCode(err, CodeFileInvalid)) {
		t.Fatalf("decode(%q): want a read or invalid refusal, got %v", data, err)
	}
	if len(ce.Details) != 1 || ce.Details[0] != (collaberr.Field{Key: "operation", Value: OpRead}) {
		t.Fatalf("decode(%q): refusal details %v, want only the read operation", data, ce.Details)
	}
	if len(data) >= 8 && bytes.Contains([]byte(ce.Message), data) {
		t.Fatalf("decode(%q): the refusal echoes the file content", data)
	}
	if collaberr.HasCode(err, CodeFileInvalid) && !json.Valid(data) {
		t.Fatalf("decode(%q): text that is not JSON reported as invalid shape rather than unreadable", data)
	}
}

func checkDecoded(t *testing.T, data []byte, c Credential) {
	t.Helper()
	if !json.Valid(data) {
		t.Fatalf("decode accepted %q, which is not JSON", data)
	}
	if c.Generation < 1 || c.Generation > maxSafeInteger {
		t.Fatalf("decode(%q): generation %d out of range", data, c.Generation)
	}
	if cur := c.LastCursor; cur != nil && (cur.Sequence < 0 || cur.Sequence > maxSafeInteger || !cursorHashPattern.MatchString(cur.Hash)) {
		t.Fatalf("decode(%q): cursor %+v out of range", data, *cur)
	}
	out, err := encode(c)
	if err != nil || !bytes.HasSuffix(out, []byte("}\n")) || bytes.Count(out, []byte("\n")) != 1 {
		t.Fatalf("encode(%+v) = %q, %v: want one compact JSON line", c, out, err)
	}
	again, err := decode(out)
	if err != nil || !reflect.DeepEqual(again, c) {
		t.Fatalf("%q decodes to %+v, but its rewrite %q decodes to %+v (%v)", data, c, out, again, err)
	}
	if rewritten, _ := encode(again); !bytes.Equal(rewritten, out) {
		t.Fatalf("the canonical form of %q is not a fixed point: %q then %q", data, out, rewritten)
	}
}
