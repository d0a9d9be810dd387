package setup

import (
	"fmt"
	"regexp"
	"strings"
)

// LastingBinary is the one check every command runs before it writes this
// binary's path into another program's configuration (a Hermes server
// entry, a Git hook): it returns an error, naming the path and what to do
// instead, when path is a build the Go tool keeps only for a while. Those
// are the folder `go run` and `go test` link into (…/go-build123/b001/…,
// under TMPDIR or GOTMPDIR), deleted when the command ends, and the build
// cache's executable entries (…/<2 hex>/<64 hex>-d/NAME, Go 1.24 and later,
// wherever GOCACHE is), which `go clean -cache` and the cache's own
// trimming remove. A configuration naming either would break later with
// no word of why.
func LastingBinary(path string) error {
	if !temporaryBuild(path) {
		return nil
	}
	return fmt.Errorf("%s is a temporary Go build (go run or the build cache), which Go deletes; "+
		"install the binary first (go install ./cmd/agenttool-collab-mcp, or host stage DIR) and run this command with it", path)
}

var (
	workDir    = regexp.MustCompile(`^go-build[0-9]+$`)
	actionDir  = regexp.MustCompile(`^b[0-9]+$`)
	cacheShard = regexp.MustCompile(`^[0-9a-f]{2}$`)
	cacheEntry = regexp.MustCompile(`^[0-9a-f]{64}-d$`)
)

// temporaryBuild reports whether path lies in a Go work folder or is a
// build-cache executable. Both separators are read, so a Windows path is
// judged the same on every system.
func temporaryBuild(path string) bool {
	parts := strings.FieldsFunc(path, func(r rune) bool { return r == '/' || r == '\\' })
	for i := 0; i+1 < len(parts); i++ {
		if workDir.MatchString(parts[i]) && actionDir.MatchString(parts[i+1]) {
			return true
		}
		if cacheShard.MatchString(parts[i]) && cacheEntry.MatchString(parts[i+1]) && strings.HasPrefix(parts[i+1], parts[i]) {
			return true
		}
	}
	return false
}
