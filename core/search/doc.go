// Package search is full-text search over everything a collab journal
// holds: report bodies, decisions, task titles and descriptions, progress
// notes, review comments, handoff summaries, artifact names and the text of
// every other event payload.
//
// The journal is the truth and the index is a cache. The index lives in a
// sidecar SQLite file beside the database (SidecarPath), never in the
// database itself, so the main file keeps exactly the shape the reference
// implementation validates. The sidecar records, per workspace, the
// journal position it has indexed through (epoch, sequence, hash); before
// every search it catches up from that position, and it drops and rebuilds
// a workspace whose indexed position is no longer in the journal (a
// rewind, a restored backup, or a sidecar that belongs to another
// database). A sidecar that is missing, unreadable or of another format is
// recreated.
//
// Reading the journal uses one read transaction on the main database and
// never its write lock; only the sidecar is written, so searching never
// delays a journal write, and indexing happens on query, not on write.
package search
