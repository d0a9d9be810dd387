package gitstate

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/core/place"
)

// maxConfigScan is the largest configuration file scanned for filter
// drivers; a larger one is treated as if it might define some.
const maxConfigScan = 1 << 20

// repoDirs are the directories a worktree's repository configuration lives
// in, as rev-parse names them.
type repoDirs struct{ commonDir, gitDir string }

// configFiles lists every file Git reads configuration from for a
// repository, and some it may not read: the system file (systemFile, ""
// when not known) and Git for Windows' one under PROGRAMDATA, the global
// ones under every home directory and XDG location the environment names,
// and the repository's own. A capture
// learns from them whether any filter driver could be configured, so
// listing more than Git reads only ever makes it ask Git.
func configFiles(systemFile string, env func(string) string, dirs repoDirs) []string {
	var files []string
	add := func(parts ...string) {
		for _, p := range parts {
			if p == "" {
				return
			}
		}
		files = append(files, filepath.Join(parts...))
	}
	add(systemFile)
	add(env("GIT_CONFIG_SYSTEM"))
	add(env("PROGRAMDATA"), "Git", "config") // Git for Windows reads it before the system file
	add(env("GIT_CONFIG_GLOBAL"))
	add(env("XDG_CONFIG_HOME"), "git", "config")
	homes := []string{env(place.EnvHome), env(place.EnvUserProfile)}
	if env("HOMEDRIVE") != "" && env("HOMEPATH") != "" {
		homes = append(homes, env("HOMEDRIVE")+env("HOMEPATH"))
	}
	for _, home := range homes {
		add(home, ".gitconfig")
		add(home, ".config", "git", "config")
	}
	for _, dir := range []string{dirs.commonDir, dirs.gitDir} {
		add(dir, "config")
		add(dir, "config.worktree")
	}
	return files
}

// noFilterDrivers reports whether none of files can configure a filter
// driver: every one that exists was read whole and mentions neither
// "filter" nor "include" in any letter case. A driver is configured by a
// key filter.<name>.*, and Git spells a section name out (only a quoted
// subsection may hold escapes), so a file without the word cannot
// configure one unless it includes another file. A file that cannot be
// read, is too large to scan or is named by a relative path counts as one
// that might.
func noFilterDrivers(files []string) bool {
	for _, f := range files {
		if !filepath.IsAbs(f) { // Git would resolve it against another directory
			return false
		}
		text, err := readConfigFile(f)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return false
		}
		lower := bytes.ToLower(text)
		if bytes.Contains(lower, []byte("filter")) || bytes.Contains(lower, []byte("include")) {
			return false
		}
	}
	return true
}

// readConfigFile reads a configuration file of at most maxConfigScan
// bytes.
func readConfigFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := io.ReadAll(io.LimitReader(f, maxConfigScan+1))
	if err != nil {
		return nil, err
	}
	if len(text) > maxConfigScan {
		return nil, errors.New("configuration file too large to scan")
	}
	return text, nil
}
