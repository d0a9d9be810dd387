package setup

import (
	"strings"
	"testing"
)

func TestLastingBinaryRefusesEveryTemporaryGoBuild(t *testing.T) {
	const hash = "0674706e3656ce11c46f2c2fc72bcc573ea128966fc6e6539e155d6e500faa1a"
	cases := []struct {
		name, path string
		temporary  bool
	}{
		{"go run work folder under /tmp", "/tmp/go-build2190528646/b001/exe/agenttool-collab-mcp", true},
		{"go run work folder under a long TMPDIR", "/var/folders/xy/abcdefgh/T/go-build77/b001/exe/agenttool-collab-mcp", true},
		{"go run work folder under GOTMPDIR with spaces", "/home/me/my tmp/go-build5/b042/exe/agenttool-collab-mcp", true},
		{"go test binary", "/tmp/go-build123/b001/agenttool-collab-mcp.test", true},
		{"build cache entry, default GOCACHE", "/root/.cache/go-build/06/" + hash + "-d/agenttool-collab-mcp", true},
		{"build cache entry, GOCACHE elsewhere", "/work/gocache/06/" + hash + "-d/agenttool-collab-mcp", true},
		{"build cache entry on Windows", `C:\Users\me\AppData\Local\go-build\06\` + hash + `-d\agenttool-collab-mcp.exe`, true},
		{"go install", "/home/me/go/bin/agenttool-collab-mcp", false},
		{"npm package", "/usr/local/lib/node_modules/@agenttool/collab/bin/linux-x64/agenttool-collab-mcp", false},
		{"staged plugin root", "/home/me/collab-plugin/bin/linux-x64/agenttool-collab-mcp", false},
		{"a folder merely named like the cache", "/home/me/src/go-build-tools/bin/agenttool-collab-mcp", false},
		{"a shard whose entry does not start with it", "/srv/07/" + hash + "-d/agenttool-collab-mcp", false},
		{"hex folder names of the wrong length", "/srv/06/0674706e-d/agenttool-collab-mcp", false},
	}
	for _, c := range cases {
		err := LastingBinary(c.path)
		if got := err != nil; got != c.temporary {
			t.Errorf("%s: %s: refused=%v, want %v (%v)", c.name, c.path, got, c.temporary, err)
			continue
		}
		if err != nil && (!strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), "go install")) {
			t.Errorf("%s: the refusal should name the path and the fix: %v", c.name, err)
		}
	}
}
