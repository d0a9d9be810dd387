package doctor

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

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
	if db.Path != "" && !db.Memory {
		dir := filepath.Dir(db.Path)
		rules = append(rules,
			modeRule{"database", db.Path, false, 0o077, 0, "0600"},
			modeRule{"database WAL", db.Path + "-wal", false, 0o077, 0, "0600"},
			modeRule{"database shared memory", db.Path + "-shm", false, 0o077, 0, "0600"},
			modeRule{"credential folder", filepath.Join(dir, "collab-sessions"), true, 0o077, 0, "0700"},
			modeRule{"database folder", dir, true, 0o022, 0, "not writable by group or others"},
		)
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
	perm := st.Mode().Perm()
	ok := perm&m.mustBeClear == 0 && perm&m.mustBeSet == m.mustBeSet
	if m.dir && st.Mode()&fs.ModeSticky != 0 && m.what == "database folder" {
		ok = true // a shared sticky folder such as /tmp is the user's choice
	}
	return FileCheck{What: m.what, Path: m.path, Want: m.want, Got: fmt.Sprintf("%04o", perm), OK: ok}, true
}
