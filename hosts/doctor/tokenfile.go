package doctor

import (
	"errors"
	"fmt"
	"os"

	"github.com/agenttool/collab/core/fileowner"
	"github.com/agenttool/collab/core/tokens"
)

// tokenFileWhat names the token file's row in the file checks.
const tokenFileWhat = "token file"

// checkTokenFile applies the rule `serve` applies before it trusts the
// token file (core/tokens.Check): a missing file is skipped; one that is
// not a private regular file of this user with one link is a problem,
// because serve then admits no client.
func checkTokenFile(path string) (FileCheck, bool) {
	info, err := os.Lstat(path)
	if err != nil {
		return FileCheck{}, false
	}
	c := FileCheck{What: tokenFileWhat, Path: path, Want: "a private regular file of yours (0600, one link, not a symlink)",
		Got: fmt.Sprintf("%04o", info.Mode().Perm()), OK: true}
	err = tokens.Check(path)
	var unsafe *tokens.UnsafeFileError
	switch {
	case errors.As(err, &unsafe):
		c.Got, c.OK = unsafe.Fault.String(), false
		if unsafe.Fault == fileowner.OpenToOthers {
			c.Got += fmt.Sprintf(" (mode %04o)", unsafe.Mode.Perm())
		}
	case err != nil:
		c.Got, c.OK = "unreadable: "+err.Error(), false
	}
	return c, true
}

// tokenFileProblem says what a failed token file check means and its fix.
func tokenFileProblem(f FileCheck) string {
	return fmt.Sprintf("%s %s is %s, so `serve` admits no client; someone else may have written its hashes: remove it (rm %s) and add your tokens again with `agenttool-collab-mcp token add NAME`",
		f.What, f.Path, f.Got, shellQuote(f.Path))
}
