package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/covertest"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// FuzzToolCallsOverStdio sends fuzzed tools/call requests — any tool
// name, any JSON arguments — to one real server process over its stdio
// pipe, so the SDK's message decoding and routing are in the loop too.
// Invariants: every request gets exactly one JSON-RPC response (stdout
// carries nothing else, or mcptest fails), the process survives, unknown
// tools are JSON-RPC invalid params, and tool errors are either input
// rejections (text only) or snake_case refusals — never internal_error
// outside the legacy write guard. Seeds: testdata/fuzz/FuzzToolCallsOverStdio.
func FuzzToolCallsOverStdio(f *testing.F) {
	c, ws := startFuzzServer(f)
	f.Fuzz(func(t *testing.T, name string, args []byte) {
		if !json.Valid(args) {
			return // mcptest can only embed well-formed JSON in a request
		}
		args = []byte(strings.ReplaceAll(string(args), "$WS", ws))
		r, err := c.CallRaw(name, args)
		if err != nil {
			t.Fatalf("%s(%s): the server stopped answering: %v\nstderr: %s", name, args, err, c.Stderr())
		}
		if msg := wireViolation(name, r); msg != "" {
			t.Fatalf("%s(%s): %s\n%s", name, args, msg, r.Raw)
		}
	})
}

var refusalCode = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// wireViolation says what is wrong with a response, or "".
func wireViolation(name string, r mcptest.Result) string {
	switch {
	case r.RPCError != nil:
		if r.RPCError.Code != -32602 {
			return "a JSON-RPC error other than invalid params"
		}
	case !r.IsError:
		if r.Structured == nil {
			return "a success without structured content"
		}
	case r.Structured == nil:
		if !strings.HasPrefix(r.Text, "Input validation error: Invalid arguments for tool "+name+": ") {
			return "an input rejection that does not name the tool and argument"
		}
	case !refusalCode.MatchString(r.Code()):
		return "a refusal without a snake_case code"
	case r.Code() == "internal_error" && str(r.Structured, "message") != "agenttool_collab_v2_write_requires_v2_client":
		return "an internal error"
	}
	return ""
}

// startFuzzServer starts one server on a fresh database holding one
// workspace (opened in legacy mode, so the process stays unbound).
func startFuzzServer(f *testing.F) (*mcptest.Client, string) {
	root, err := filepath.EvalSymlinks(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	repo := filepath.Join(root, "repo")
	for _, args := range [][]string{{"init", "-q", repo},
		{"-C", repo, "-c", "user.name=f", "-c", "user.email=f@example.com", "commit", "-q", "--allow-empty", "-m", "init"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			f.Skipf("git is needed: %v %s", err, out)
		}
	}
	env := []string{serveEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + root,
		"AGENTOOL_COLLAB_DB=" + filepath.Join(root, "state", "collab.sqlite"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	env = append(env, covertest.Env()...)
	c, err := mcptest.Start([]string{os.Args[0]}, env)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { c.Close() })
	r, err := c.Call("collab_workspace_open", map[string]any{"root_path": repo, "actor": "fuzz"})
	if err != nil || r.IsError {
		f.Fatalf("open workspace: %v %s", err, r.Raw)
	}
	return c, str(r.Structured, "workspace.id")
}
