package command

import (
	"os"
	"strings"
)

// The binary's two names: the short one for people and the server's.
const (
	ShortName  = "collab"
	ServerName = "agenttool-collab-mcp"
)

// NameFor is the name a person typed, from argv[0]: ShortName when the
// binary runs under it (a symlink, a copy, the collab command that
// `go install ./cmd/...` builds, or the npm bin entry that passes it on),
// else ServerName. Both path separators count, since Windows passes
// backslashed paths.
func NameFor(argv0 string) string {
	base := argv0[strings.LastIndexAny(argv0, `/\`)+1:]
	if strings.TrimSuffix(strings.ToLower(base), ".exe") == ShortName {
		return ShortName
	}
	return ServerName
}

// ProgramName is NameFor this process's argv[0].
func ProgramName() string { return NameFor(os.Args[0]) }
