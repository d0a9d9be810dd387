package setup

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/codex"
)

// RepositoryMarketplace is the marketplace source of the published plugin.
const RepositoryMarketplace = "agenttool/collab"

// HostCommands returns the commands Claude Code ("claude") or Codex
// ("codex") runs to install or remove the plugin from source; ok is false
// for any other host.
func HostCommands(host string, install bool, source string) (cmds [][]string, ok bool) {
	switch host {
	case "claude", "claude-code":
		if install {
			return claude.InstallCommands(source), true
		}
		return claude.UninstallCommands(), true
	case "codex":
		if install {
			return codex.InstallCommands(source), true
		}
		return codex.UninstallCommands(), true
	}
	return nil, false
}

// DefaultSource is the package folder the running binary belongs to, when
// it runs from one that lasts (LastingBinary), else the repository's
// marketplace.
func DefaultSource(env Env) string {
	if exe, err := env.Executable(); err == nil && LastingBinary(exe) == nil {
		root := filepath.Dir(filepath.Dir(filepath.Dir(exe)))
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(claude.MarketplacePath))); err == nil {
			return root
		}
	}
	return RepositoryMarketplace
}

// ShellJoin writes a command line a POSIX shell reads back as args,
// quoting every argument that holds anything but safe characters.
func ShellJoin(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.IndexFunc(a, unsafeInShell) < 0 {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

func unsafeInShell(r rune) bool {
	switch {
	case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		return false
	}
	return !strings.ContainsRune("/.-_@:=+,", r)
}
