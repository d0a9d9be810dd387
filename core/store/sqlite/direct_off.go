//go:build collab_nodirect

package sqlite

import (
	"context"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// Built with the tag collab_nodirect, the store has no direct read
// connections (halves.go is their entry): every journal is verified in
// one pass of driver rows.

// directURI names no file for direct connections.
func directURI(string, bool) string { return "" }

// Ranges offers no ranges: every journal is read in one pass.
func (c *chains) Ranges(context.Context, store.JournalHead) ([]journal.Range, error) {
	return nil, nil
}
