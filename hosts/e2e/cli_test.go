package e2e

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/covertest"
)

// The host CLI versions the test was written against; override with
// COLLAB_E2E_CLAUDE_VERSION / COLLAB_E2E_CODEX_VERSION (e.g. "latest").
const (
	claudeVersion = "2.1.197"
	codexVersion  = "0.171.0"
)

// cmdSpec is one command to run.
type cmdSpec struct {
	dir, name string
	args      []string
	env       []string
	timeout   time.Duration
}

// run runs a command and fails the test when it fails; it returns stdout.
func run(ctx context.Context, t *testing.T, c cmdSpec) string {
	t.Helper()
	out, errOut, err := tryRun(ctx, c)
	if err != nil {
		t.Fatalf("%s %s: %v\nstdout:\n%s\nstderr:\n%s", c.name, strings.Join(c.args, " "), err, out, errOut)
	}
	return out
}

// tryRun runs a command and returns its stdout, stderr and error.
func tryRun(ctx context.Context, c cmdSpec) (string, string, error) {
	if c.timeout == 0 {
		// Generous: a cold "go build" on a loaded 2-core machine takes minutes.
		c.timeout = 15 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.name, c.args...)
	cmd.Dir, cmd.Env = c.dir, c.env
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		err = errors.Join(err, ctx.Err())
	}
	return stdout.String(), stderr.String(), err
}

// hostCLIs installs (or reuses) the two host CLIs from npm in a cache
// folder and returns the folder holding their executables. It skips the
// test when npm cannot install them.
func hostCLIs(ctx context.Context, t *testing.T, env []string) string {
	t.Helper()
	cache := os.Getenv("COLLAB_E2E_CACHE")
	if cache == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("skipping: no cache folder for the host CLIs (%v); set COLLAB_E2E_CACHE", err)
		}
		cache = filepath.Join(base, "agenttool-hosts-e2e")
	}
	prefix := filepath.Join(cache, "npm")
	if err := os.MkdirAll(prefix, 0o755); err != nil {
		t.Fatal(err)
	}
	specs := []string{
		"@anthropic-ai/claude-code@" + envOr("COLLAB_E2E_CLAUDE_VERSION", claudeVersion),
		"@openai/codex@" + envOr("COLLAB_E2E_CODEX_VERSION", codexVersion),
	}
	if installed(prefix, specs) {
		return filepath.Join(prefix, "node_modules", ".bin")
	}
	args := append([]string{"install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", "--loglevel=error"}, specs...)
	start := time.Now()
	if out, errOut, err := tryRun(ctx, cmdSpec{dir: prefix, name: "npm", args: args, env: env, timeout: 10 * time.Minute}); err != nil {
		t.Skipf("skipping: cannot install the host CLIs from npm (%v)\n%s%s", err, out, errOut)
	}
	t.Logf("host CLIs ready in %s (%s)", prefix, time.Since(start).Round(time.Second))
	return filepath.Join(prefix, "node_modules", ".bin")
}

// installed reports whether every "name@version" spec is already in
// prefix at exactly that version, so a warm cache needs no registry.
func installed(prefix string, specs []string) bool {
	for _, spec := range specs {
		at := strings.LastIndex(spec, "@")
		data, err := os.ReadFile(filepath.Join(prefix, "node_modules", filepath.FromSlash(spec[:at]), "package.json"))
		if err != nil || !strings.Contains(string(data), `"version": "`+spec[at+1:]+`"`) {
			return false
		}
	}
	return true
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// baseEnv is a small, explicit environment for the host CLIs: nothing from
// the developer's own configuration, API keys or data folders leaks in.
func baseEnv(home, path string) []string {
	env := []string{
		"HOME=" + home,
		"PATH=" + path,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"TMPDIR=" + os.TempDir(),
		"npm_config_update_notifier=false",
		"npm_config_fund=false",
		"npm_config_audit=false",
	}
	for _, k := range []string{"npm_config_cache", "npm_config_registry", "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "SSL_CERT_FILE"} {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	// A coverage run counts what the servers the hosts start run.
	return append(env, covertest.Env()...)
}
