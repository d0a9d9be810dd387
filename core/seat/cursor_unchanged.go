package seat

import "github.com/agenttool/collab/core/credfile"

// recordsCursor reports whether the credential file already records c as
// the last acknowledged cursor: the binding's lastCursor is what this
// binding last read from or wrote to its file (start, resume, hold, or the
// previous acknowledgement). An acknowledgement that leaves the cursor
// where it was (a host acking the head again while nothing new arrived)
// then has nothing to rewrite, and skips the file's create-and-rename,
// about a fifth of such an acknowledgement through the binary
// (BenchmarkAckUnchangedCursor). The file's guarantees are those of the
// last rewrite: it is complete, private, and names this cursor.
func (b *binding) recordsCursor(c credfile.Cursor) bool {
	return b.lastCursor != nil && *b.lastCursor == c
}
