// Package guard checks a Git commit or push against the path claims of a
// collab workspace: every changed path that falls inside a scope another
// session holds (a live claim, or a completion waiting for review) is a
// conflict. Claims stay advisory; the guard only makes them visible at the
// moment a person or an agent commits over them.
//
// The guard never writes the journal and never takes a write lock. It runs
// Git with every repository-configured program switched off, and its
// callers treat any failure as "no verdict": a hook must fail open.
package guard
