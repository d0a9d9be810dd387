package scope

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// loadTable decodes testdata/name into v.
func loadTable(t *testing.T, name string, v any) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatalf("read table: %v", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", name, err)
	}
}

func TestPosixNormalizeMatchesNode(t *testing.T) {
	var table struct {
		Cases [][2]string `json:"cases"`
	}
	loadTable(t, "posix_normalize.json", &table)
	if len(table.Cases) < 1000 {
		t.Fatalf("table has only %d cases", len(table.Cases))
	}
	for _, c := range table.Cases {
		if got := posixNormalize(c[0]); got != c[1] {
			t.Errorf("posixNormalize(%q) = %q, Node says %q", c[0], got, c[1])
		}
	}
}
