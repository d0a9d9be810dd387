package guard

import (
	"bytes"
	"fmt"
)

// Change is one path a commit or push touches. From is the path a rename
// or copy started at, empty otherwise; both ends count against claims,
// since moving a file out of a claimed folder changes that folder too.
type Change struct {
	Status string // Git's letter: A, M, D, R, C, T, U
	Path   string
	From   string
}

// Paths returns the paths the change touches: From (when set) and Path.
func (c Change) Paths() []string {
	if c.From != "" {
		return []string{c.From, c.Path}
	}
	return []string{c.Path}
}

// ParseNameStatus reads the output of `git diff --name-status -z`: a
// status field, then one path, or two for renames and copies, each ended
// by NUL. Blank status fields (between commits in `git log` output) are
// skipped.
func ParseNameStatus(out []byte) ([]Change, error) {
	fields := bytes.Split(out, []byte{0})
	var changes []Change
	for i := 0; i < len(fields); i++ {
		status := string(bytes.TrimSpace(fields[i]))
		if status == "" {
			continue
		}
		letter := status[:1]
		paths := 1
		if letter == "R" || letter == "C" {
			paths = 2
		}
		if i+paths >= len(fields) || len(fields[i+paths]) == 0 {
			return nil, fmt.Errorf("git name-status output ends inside the entry %q", status)
		}
		c := Change{Status: letter, Path: string(fields[i+paths])}
		if paths == 2 {
			c.From = string(fields[i+1])
		}
		changes = append(changes, c)
		i += paths
	}
	return changes, nil
}
