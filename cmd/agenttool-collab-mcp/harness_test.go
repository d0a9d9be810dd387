package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agenttool/collab/core/covertest"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
	"github.com/agenttool/collab/hosts/program"
)

// serveEnv makes the test binary act as the server: TestMain runs the
// command's entry point instead of the tests when it is set. Tests thus
// drive real OS processes without a separate build step.
const serveEnv = "COLLAB_TEST_SERVE"

func TestMain(m *testing.M) {
	if rec := os.Getenv(fakeAgentEnv); rec != "" {
		os.Exit(fakeAgent(rec))
	}
	if os.Getenv(serveEnv) == "1" {
		// As main does: SIGINT/SIGTERM cancel the context (serve drains).
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := program.Main(ctx, os.Args, version, command.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
		stop()
		recordOwnPeak()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// run is the binary's dispatch in process, as main calls it after the
// collab-without-arguments check.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return program.Run(ctx, version, args, command.IO{Stdin: stdin, Stdout: stdout, Stderr: stderr})
}

// sandbox is one isolated machine state: a home, a data dir and a database.
type sandbox struct {
	t    testing.TB
	root string
	db   string
}

func newSandbox(t testing.TB) *sandbox {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &sandbox{t: t, root: root, db: filepath.Join(root, "state", "collab.sqlite")}
}

// env is the environment every server of the sandbox gets, plus extra.
func (s *sandbox) env(extra ...string) []string {
	env := []string{
		serveEnv + "=1",
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(s.root, "home"),
		"XDG_DATA_HOME=" + filepath.Join(s.root, "xdg"),
		"AGENTOOL_COLLAB_DB=" + s.db,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
	}
	// Last, so a coverage run counts what the server runs whatever extra says.
	return append(append(env, extra...), covertest.Env()...)
}

// inherited is this process's environment plus extra, for children that
// should see the developer's environment; a coverage run's directory comes
// last so the child's coverage counts.
func inherited(extra ...string) []string {
	return append(append(os.Environ(), extra...), covertest.Env()...)
}

// start launches one server process on the sandbox's database.
func (s *sandbox) start(extra ...string) *mcptest.Client {
	s.t.Helper()
	c, err := mcptest.Start([]string{os.Args[0]}, s.env(extra...))
	if err != nil {
		s.t.Fatalf("start server: %v", err)
	}
	s.t.Cleanup(func() { c.Close() })
	return c
}

// repo creates a Git repository with one commit and returns its path.
func (s *sandbox) repo(name string, files map[string]string) string {
	s.t.Helper()
	dir := filepath.Join(s.root, "repos", name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		s.t.Fatal(err)
	}
	for p, content := range files {
		full := filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
	s.git(dir, "init", "-q", "-b", "main")
	s.git(dir, "add", "-A")
	s.git(dir, "commit", "-q", "-m", "init", "--allow-empty")
	return dir
}

func (s *sandbox) git(dir string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(s.env(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-01T00:00:00Z")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// call invokes a tool and fails the test on transport errors.
func call(t *testing.T, c *mcptest.Client, tool string, args map[string]any) mcptest.Result {
	t.Helper()
	r, err := c.Call(tool, args)
	if err != nil {
		t.Fatalf("%s: %v\nstderr: %s", tool, err, c.Stderr())
	}
	return r
}

// ok invokes a tool that must succeed and returns its structured result.
func ok(t *testing.T, c *mcptest.Client, tool string, args map[string]any) map[string]any {
	t.Helper()
	r := call(t, c, tool, args)
	if r.IsError || r.RPCError != nil {
		t.Fatalf("%s failed: %s", tool, r.Raw)
	}
	return r.Structured
}

// refused invokes a tool that must be refused with code.
func refused(t *testing.T, c *mcptest.Client, tool string, args map[string]any, code string) map[string]any {
	t.Helper()
	r := call(t, c, tool, args)
	if r.Code() != code {
		t.Fatalf("%s: want refusal %s, got %s", tool, code, r.Raw)
	}
	return r.Structured
}

// get walks a decoded JSON value along a dotted path.
func get(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[part]
	}
	return v
}

func str(v any, path string) string {
	s, _ := get(v, path).(string)
	return s
}

func num(v any, path string) int64 {
	f, _ := get(v, path).(float64)
	return int64(f)
}
