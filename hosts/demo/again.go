package demo

import (
	"os"
	"path/filepath"
	"strings"
)

// Again is the command a person types to run this program again, as the
// demo's closing lines suggest it: "collab" when it runs under that name;
// `go run ./cmd/agenttool-collab-mcp` when exe is the throwaway build of a
// `go run` (it lives in a go-build folder, in a directory named exe), so
// the suggestion works from the folder the demo was started in; the bare
// name when PATH finds this very file under it; else exe's full path.
// lookPath is exec.LookPath; same reports whether two paths are one file.
func Again(argv0, exe string, lookPath func(string) (string, error), same func(a, b string) bool) string {
	base := strings.TrimSuffix(filepath.Base(strings.ReplaceAll(argv0, `\`, "/")), ".exe")
	switch {
	case strings.EqualFold(base, "collab"):
		return "collab"
	case filepath.Base(filepath.Dir(exe)) == "exe" && strings.Contains(exe, "go-build"):
		return "go run ./cmd/agenttool-collab-mcp"
	}
	if found, err := lookPath(base); err == nil && same(found, exe) {
		return base
	}
	return shellWord(exe)
}

// SameFile reports whether a and b name one file.
func SameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// shellWord quotes s for a POSIX shell when it holds anything but plain
// path characters.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:=@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
