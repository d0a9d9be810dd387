package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/plugin"
)

// FileCheck is one file or folder whose mode matters.
type FileCheck struct {
	What string `json:"what"`
	Path string `json:"path"`
	Want string `json:"want"`
	Got  string `json:"got"`
	OK   bool   `json:"ok"`
}

// modeRule says which permission bits must be clear or set.
type modeRule struct {
	what        string
	path        string
	dir         bool
	mustBeClear fs.FileMode
	mustBeSet   fs.FileMode
	want        string
}

// checkFiles checks the modes of the database, its sidecars and folders,
// the credential folder, and the plugin root's launcher and binary. Files
// that do not exist are skipped; Windows has no such modes.
func checkFiles(in Inputs, db Database, r *RootReport) []FileCheck {
	out := []FileCheck{}
	if in.OS == "windows" {
		return out
	}
	var rules []modeRule
	if db.Postgres {
		if b, err := place.BesideDatabaseIn(db.env, db.url); err == nil {
			rules = append(rules,
				modeRule{"credential folder", b.CredentialDir(), true, 0o077, 0, "0700"},
				modeRule{"PostgreSQL local folder", b.Dir(), true, 0o077, 0, "0700"},
			)
			if c, ok := checkTokenFile(b.TokensFile()); ok {
				out = append(out, c)
			}
		}
	} else if db.Path != "" && !db.Memory {
		if b, err := place.BesideDatabase(db.Path); err == nil {
			rules = append(rules,
				modeRule{"database", b.Database(), false, 0o077, 0, "0600"},
				modeRule{"database WAL", b.WAL(), false, 0o077, 0, "0600"},
				modeRule{"database shared memory", b.SHM(), false, 0o077, 0, "0600"},
				modeRule{"credential folder", b.CredentialDir(), true, 0o077, 0, "0700"},
				modeRule{"database folder", b.Dir(), true, 0o022, 0, "not writable by group or others"},
			)
			if c, ok := checkTokenFile(b.TokensFile()); ok {
				out = append(out, c)
			}
		}
	}
	if r != nil {
		rules = append(rules,
			modeRule{"launcher", filepath.Join(r.Path, filepath.FromSlash(plugin.Launcher)), false, 0, 0o111, "executable (0755)"},
			modeRule{"server binary", filepath.Join(r.Path, filepath.FromSlash(platformBinary(in.OS, in.Arch))), false, 0, 0o111, "executable (0755)"},
		)
	}
	for _, rule := range rules {
		if c, ok := rule.check(); ok {
			out = append(out, c)
		}
	}
	return out
}

// platformBinary is the package path of the server built for goos/goarch,
// in the bin/<platform>-<arch>/ layout the launcher reads.
func platformBinary(goos, goarch string) string {
	name := plugin.BinaryName
	if goos == "windows" {
		goos, name = "win32", name+".exe"
	}
	if goarch == "amd64" {
		goarch = "x64"
	}
	return "bin/" + goos + "-" + goarch + "/" + name
}

// check reports the rule's outcome, or false when the path does not exist.
func (m modeRule) check() (FileCheck, bool) {
	st, err := os.Stat(m.path)
	if err != nil {
		return FileCheck{}, false
	}
	if st.IsDir() != m.dir {
		kind := map[bool]string{true: "a directory", false: "a file"}
		return FileCheck{What: m.what, Path: m.path, Want: kind[m.dir], Got: kind[st.IsDir()], OK: false}, true
	}
	perm := st.Mode().Perm()
	ok := perm&m.mustBeClear == 0 && perm&m.mustBeSet == m.mustBeSet
	if m.dir && st.Mode()&fs.ModeSticky != 0 && m.what == "database folder" {
		ok = true // a shared sticky folder such as /tmp is the user's choice
	}
	return FileCheck{What: m.what, Path: m.path, Want: m.want, Got: fmt.Sprintf("%04o", perm), OK: ok}, true
}

// problem says what is wrong with a failed check and the command that
// fixes it.
func (f FileCheck) problem() string {
	switch {
	case f.What == tokenFileWhat:
		return tokenFileProblem(f)
	case f.Got == "a directory" || f.Got == "a file":
		fix := "move it away or choose another path"
		if f.What == "database" {
			fix = "point AGENTOOL_COLLAB_DB at a file, e.g. " + filepath.Join(f.Path, "collab.sqlite")
		}
		return fmt.Sprintf("%s %s is %s, not %s; fix: %s", f.What, f.Path, f.Got, f.Want, fix)
	case f.Want == "0600":
		return fmt.Sprintf("%s %s has mode %s, want 0600; fix: chmod 600 %s", f.What, f.Path, f.Got, shellQuote(f.Path))
	case f.Want == "0700":
		return fmt.Sprintf("%s %s has mode %s, want 0700; fix: chmod 700 %s", f.What, f.Path, f.Got, shellQuote(f.Path))
	case f.What == "database folder":
		return fmt.Sprintf("%s %s has mode %s, want %s; fix: chmod go-w %s", f.What, f.Path, f.Got, f.Want, shellQuote(f.Path))
	default:
		return fmt.Sprintf("%s %s has mode %s, want %s; fix: chmod 755 %s", f.What, f.Path, f.Got, f.Want, shellQuote(f.Path))
	}
}

// shellQuote quotes a path for a POSIX shell when it needs it.
func shellQuote(s string) string {
	for _, r := range s {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
