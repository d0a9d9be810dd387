//go:build collab_noreadahead

package postgres

import (
	"context"

	"github.com/agenttool/collab/core/store/sqltx"
)

// Built with the tag collab_noreadahead, the engine does not read ahead
// (readahead.go): Tx offers no ReadAhead, so the rules name no reads in
// advance, and every query goes to the server when it is made.

// readAhead is never set.
type readAhead struct{}

// recorder is never set.
type recorder struct{}

// readAhead answers no query: each goes to the server.
func (t *Tx) readAhead(context.Context, string, []any) (rows sqltx.Rows, err error, ok bool) {
	return nil, nil, false
}

// wrote has no rows read ahead to drop.
func (t *Tx) wrote(string) {}
