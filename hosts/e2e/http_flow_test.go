package e2e

import (
	"bufio"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"
)

// httpServerName is the MCP server name both hosts are given for the
// HTTP server (no hyphen, so both hosts' tool names keep it as is).
const httpServerName = "collabhttp"

// TestHostsOverHTTP connects the real Claude Code and Codex CLIs to one
// `serve --http` process with a bearer token each: `claude mcp list` shows
// it connected, and a tool call of each host's mock model lands in the
// one journal the server owns.
func TestHostsOverHTTP(t *testing.T) {
	if os.Getenv("COLLAB_HOSTS_E2E") != "1" {
		t.Skip("skipping: set COLLAB_HOSTS_E2E=1 (or run hosts/e2e.sh) to drive Claude Code and Codex against an HTTP server")
	}
	if runtime.GOOS == "windows" {
		t.Skip("skipping: POSIX only")
	}
	for _, tool := range []string{"npm", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping: %s is not installed, so the host CLIs cannot be installed", tool)
		}
	}
	ctx := context.Background()
	dir := workDir(t)
	w := world{home: filepath.Join(dir, "home"), project: filepath.Join(dir, "project"),
		journal: filepath.Join(dir, "owner", "collab.sqlite")}
	for _, d := range []string{w.home, w.project, filepath.Dir(w.journal)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w.bin = hostCLIs(ctx, t, os.Environ())
	server := filepath.Join(dir, "agenttool-collab-mcp")
	buildServer(ctx, t, server)
	ownerEnv := append(os.Environ(), "AGENTOOL_COLLAB_DB="+w.journal)
	token := func(name string) string {
		return strings.TrimSpace(run(ctx, t, cmdSpec{dir: dir, name: server, args: []string{"token", "add", name}, env: ownerEnv}))
	}
	claudeToken, codexToken := token("claude-laptop"), token("codex-box")
	url := startHTTPServer(t, server, ownerEnv)

	t.Run("claude", func(t *testing.T) {
		env := w.env("DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1", "DISABLE_ERROR_REPORTING=1")
		claudeCmd := func(args ...string) cmdSpec {
			return cmdSpec{dir: w.project, name: filepath.Join(w.bin, "claude"), args: args, env: env, timeout: 3 * time.Minute}
		}
		run(ctx, t, claudeCmd("mcp", "add", "--transport", "http", httpServerName, url, "--header", "Authorization: Bearer "+claudeToken))
		list := run(ctx, t, claudeCmd("mcp", "list"))
		if !connected(list, httpServerName) {
			t.Fatalf("claude mcp list does not show the HTTP server connected:\n%s", list)
		}
		tool := "mcp__" + httpServerName + "__collab_workspace_open"
		mock := &anthropicMock{Tool: tool, Input: openWorkspaceArgs(w, "claude-http")}
		srv := mock.start(t)
		prompt := claudeCmd("-p", "Open the collab workspace for this folder.", "--allowedTools", tool)
		prompt.env = append(prompt.env, "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-e2e-dummy")
		out := run(ctx, t, prompt)
		_, results, _ := mock.snapshot()
		if len(results) == 0 {
			t.Fatalf("no tool result reached the mock model; claude printed:\n%s", out)
		}
		requireInJournal(t, w.journal, workspaceEpoch(t, results[0]))
		if strings.Contains(strings.Join(results, "\n"), claudeToken) {
			t.Fatal("a tool result holds the bearer token")
		}
	})
	t.Run("codex", func(t *testing.T) {
		mock := &responsesMock{Namespace: "mcp__" + httpServerName, Tool: "collab_workspace_open", Arguments: openWorkspaceArgs(w, "codex-http")}
		srv := mock.start(t)
		writeFile(t, filepath.Join(w.home, ".codex", "config.toml"), "model_provider = \"e2e\"\nmodel = \"gpt-5\"\n\n"+
			"[model_providers.e2e]\nname = \"e2e mock\"\nbase_url = \""+srv.URL+"/v1\"\nwire_api = \"responses\"\n\n"+
			"[mcp_servers."+httpServerName+"]\nurl = \""+url+"\"\nbearer_token_env_var = \"COLLAB_HTTP_TOKEN\"\n"+
			"default_tools_approval_mode = \"approve\"\n")
		env := w.env("COLLAB_HTTP_TOKEN=" + codexToken)
		out := run(ctx, t, cmdSpec{dir: w.project, name: filepath.Join(w.bin, "codex"), env: env, timeout: 3 * time.Minute,
			args: []string{"exec", "--skip-git-repo-check", "Open the collab workspace for this folder."}})
		_, results, _ := mock.snapshot()
		if len(results) == 0 {
			t.Fatalf("no tool output reached the mock model; codex printed:\n%s", out)
		}
		requireInJournal(t, w.journal, workspaceEpoch(t, results[0]))
	})
}

var httpListenLine = regexp.MustCompile(`listening on (http://\S+/mcp)`)

// startHTTPServer runs `serve --http 127.0.0.1:0` until the test ends and
// returns its MCP URL, read from its listening line.
func startHTTPServer(t *testing.T, server string, env []string) string {
	t.Helper()
	cmd := exec.Command(server, "serve", "--http", "127.0.0.1:0")
	cmd.Env = env
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if m := httpListenLine.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
		close(found)
	}()
	select {
	case url, ok := <-found:
		if !ok {
			t.Fatal("serve --http exited before listening")
		}
		return url
	case <-time.After(3 * time.Minute):
		t.Fatal("serve --http never said it was listening")
	}
	return ""
}

// requireInJournal asserts that the server's database holds the workspace
// of the given epoch, i.e. the host's call was served by it.
func requireInJournal(t *testing.T, db, epoch string) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var n int
	if err := conn.QueryRow(`SELECT count(*) FROM events WHERE epoch_id = ?`, epoch).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("the server's journal has no event of epoch %s", epoch)
	}
}
