//go:build unix

package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
)

// plantedToken is the token an attacker chose; its hash is what they plant.
const plantedToken = "collab_planted0planted0planted0planted0planted0pla"

// plantTokenFile writes a token file admitting plantedToken at path.
func plantTokenFile(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	sum := sha256.Sum256([]byte(plantedToken))
	body, _ := json.Marshal(map[string]any{"version": 1, "tokens": []map[string]any{
		{"name": "mallory", "sha256": hex.EncodeToString(sum[:]), "created_at": time.Now().UTC().Format(time.RFC3339)}}})
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, body, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// initializeStatus posts an initialize with token to a serve process and
// returns the HTTP status.
func initializeStatus(t *testing.T, h *httpServer, token string) int {
	t.Helper()
	c := &httpmcptest.Client{URL: h.url, Token: token, Instance: "probe"}
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + httpmcptest.ProtocolVersion +
		`","capabilities":{},"clientInfo":{"name":"probe","version":"1"}}}`
	status, _, err := c.Post(context.Background(), strings.NewReader(body), int64(len(body)))
	if err != nil {
		t.Fatalf("post initialize: %v\n%s", err, h.stderr.String())
	}
	return status
}

// doctorTokenRow runs `doctor --json` in its own process and returns the
// token file's row and the problems.
func doctorTokenRow(t *testing.T, s *sandbox) (map[string]any, []string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "doctor", "--json")
	cmd.Env = s.env()
	out, _ := cmd.Output()
	var report struct {
		Files    []map[string]any `json:"files"`
		Problems []string         `json:"problems"`
	}
	if err := json.Unmarshal(out, &report); err != nil {
		t.Fatalf("doctor --json printed no report (%v):\n%s", err, out)
	}
	for _, f := range report.Files {
		if f["what"] == "token file" {
			return f, report.Problems
		}
	}
	return nil, report.Problems
}

// A token file that anyone but this user could have written (open to
// others, a symlink, a second name, another owner) admits nobody: serve
// answers 401 to the token it holds, says so once on stderr without the
// path, and doctor names the file as a problem. A private file admits.
func TestServeAdmitsNobodyThroughATokenFileOthersCouldHaveWritten(t *testing.T) {
	cases := []struct {
		name  string
		plant func(t *testing.T, path string)
		fault string // "" for the good file
	}{
		{"private 0600 file", func(t *testing.T, path string) { plantTokenFile(t, path, 0o600) }, ""},
		{"planted 0666 file", func(t *testing.T, path string) { plantTokenFile(t, path, 0o666) }, "open to group or other users (mode 0666)"},
		{"group-readable 0640 file", func(t *testing.T, path string) { plantTokenFile(t, path, 0o640) }, "open to group or other users (mode 0640)"},
		{"symlink to a private file", func(t *testing.T, path string) {
			elsewhere := filepath.Join(t.TempDir(), "theirs.json")
			plantTokenFile(t, elsewhere, 0o600)
			if err := os.Symlink(elsewhere, path); err != nil {
				t.Fatal(err)
			}
		}, "a symbolic link"},
		{"hard link to a private file", func(t *testing.T, path string) {
			elsewhere := filepath.Join(filepath.Dir(path), "theirs.json")
			plantTokenFile(t, elsewhere, 0o600)
			if err := os.Link(elsewhere, path); err != nil {
				t.Fatal(err)
			}
		}, "a file with more than one name (a hard link)"},
		{"file of another uid", func(t *testing.T, path string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a file to another uid")
			}
			plantTokenFile(t, path, 0o600)
			if err := os.Lchown(path, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, "owned by another user"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSandbox(t)
			path, err := tokens.PathFor(s.db)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
				t.Fatal(err)
			}
			c.plant(t, path)
			h := s.serveHTTP()
			status := initializeStatus(t, h, plantedToken)
			h.terminate()
			logged := h.stderr.String()
			row, problems := doctorTokenRow(t, s)
			if c.fault == "" {
				if status != 200 || strings.Contains(logged, "✖") || row == nil || row["ok"] != true {
					t.Fatalf("a private token file: status %d, doctor row %v, log:\n%s", status, row, logged)
				}
				return
			}
			if status != 401 {
				t.Errorf("the planted token got HTTP %d, want 401", status)
			}
			want := "✖ token file collab-tokens.json is " + c.fault + ", so no client is admitted"
			if strings.Count(logged, want) != 1 {
				t.Errorf("serve's log does not say once %q:\n%s", want, logged)
			}
			if strings.Contains(logged, filepath.Dir(path)) {
				t.Errorf("serve's log names the token file's path:\n%s", logged)
			}
			if row == nil || row["ok"] != false || !strings.HasPrefix(row["got"].(string), c.fault) {
				t.Errorf("doctor's token file row %v, want not ok: %s", row, c.fault)
			}
			if !strings.Contains(strings.Join(problems, "\n"), "token file "+path+" is "+c.fault) {
				t.Errorf("doctor's problems do not name the token file:\n%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// Fixing the file admits again without a restart, and the log says so.
func TestServeAdmitsAgainOnceTheTokenFileIsPrivate(t *testing.T) {
	s := newSandbox(t)
	tok := s.token("alice")
	path, _ := tokens.PathFor(s.db)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	h := s.serveHTTP()
	if got := initializeStatus(t, h, tok); got != 401 {
		t.Fatalf("alice's token in a 0644 file got HTTP %d, want 401", got)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if got := initializeStatus(t, h, tok); got != 200 {
		t.Fatalf("alice's token after chmod 600 got HTTP %d, want 200:\n%s", got, h.stderr.String())
	}
	h.terminate()
	if !strings.Contains(h.stderr.String(), "token file collab-tokens.json is trusted again") {
		t.Fatalf("the log does not say the file is trusted again:\n%s", h.stderr.String())
	}
}
