package search

import "time"

// Options tune an Index. The zero Options are what every face uses.
type Options struct {
	// Readers is how many searches may read the sidecar at the same time
	// (DefaultReaders when 0). An in-memory index always has one.
	Readers int
	// Deadline bounds the matching of one search: its FTS5 queries and
	// snippets, not the catch-up before them (DefaultDeadline when 0).
	// When it passes, SQLite is interrupted and the search is refused
	// with query_too_complex.
	Deadline time.Duration
	// Limits bound every query's expression (DefaultLimits when zero).
	Limits Limits
}

// DefaultReaders lets a few slow searches run without delaying the
// others: each holds one connection for at most its deadline.
const DefaultReaders = 4

// DefaultDeadline is how long one search may match before it is stopped.
// A query within DefaultLimits needs milliseconds; the deadline is the
// backstop for one that is not, so a person or agent learns within a
// second that it was too much.
const DefaultDeadline = 750 * time.Millisecond

func (o Options) withDefaults() Options {
	if o.Readers <= 0 {
		o.Readers = DefaultReaders
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits
	}
	return o
}
