package doctor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenttool/collab/hosts/command"
)

// Command implements `agenttool-collab-mcp doctor [--json] [--plugin-root DIR]`.
// It exits 0 when nothing needs doing, 1 when a check found a problem and
// 2 on a usage error.
func Command(ctx context.Context, version string, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("doctor", "doctor [--json] [--plugin-root DIR]")
	asJSON := c.Flags.Bool("json", false, "print the report as JSON")
	root := c.Flags.String("plugin-root", "", "check this plugin root instead of the one the binary is in")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *root != "" {
		if err := checkPluginRoot(*root); err != nil {
			return c.Fail(*asJSON, stdout, stderr, 2, err)
		}
	}
	report := Run(ctx, doctorInputs(*root, version))
	if *asJSON {
		if err := command.WriteJSON(stdout, report); err != nil {
			return c.Fail(false, stdout, stderr, 1, err)
		}
	} else if err := report.WriteText(stdout); err != nil {
		return c.Fail(false, stdout, stderr, 1, err)
	}
	if report.ActionNeeded() {
		return 1
	}
	return 0
}

// doctorInputs reads what the checks need from the real process.
func doctorInputs(root, version string) Inputs {
	in := Inputs{Env: environ(), Version: version, PluginRoot: root, OS: runtime.GOOS, Arch: runtime.GOARCH}
	in.Cwd, _ = os.Getwd()
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		in.Executable = exe
	}
	return in
}

// environ returns the process environment as a map.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			env[k] = v
		}
	}
	return env
}

// checkPluginRoot rejects a --plugin-root that is not a plugin root, rather
// than quietly checking some other one.
func checkPluginRoot(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("--plugin-root %s: %w", dir, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("--plugin-root %s is not a folder", dir)
	}
	for _, m := range []string{".claude-plugin/plugin.json", ".codex-plugin/plugin.json"} {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(m))); err == nil {
			return nil
		}
	}
	return fmt.Errorf("--plugin-root %s holds neither .claude-plugin/plugin.json nor .codex-plugin/plugin.json", dir)
}
