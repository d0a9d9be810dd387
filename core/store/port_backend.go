package store

import "context"

// Backend is an engine as a Store holds it: the transactional port
// (Engine) and what only the engine behind it can tell, namely where the
// journal is, the checks only it can make and its change signals. The
// SQLite backend answers from the file, the PostgreSQL one from the
// server; package core/backend opens the right one for a database value.
type Backend interface {
	Engine
	// Path is the absolute database path, the in-memory marker, or a
	// PostgreSQL URL without its password: the form to show, log and key
	// local files on.
	Path() string
	// QuickCheck returns the problems the engine's own integrity check
	// finds (at most ten), none for a sound journal.
	QuickCheck(ctx context.Context) ([]string, error)
	// NeedsMigration reports whether the stored schema predates the
	// current one.
	NeedsMigration(ctx context.Context) (bool, error)
	// UserVersion is the stored schema version.
	UserVersion(ctx context.Context) (int64, error)
	// NewChangeProbe opens a change signal for one poller.
	NewChangeProbe() (ChangeSignal, error)
	// Watch opens a change signal that many watchers may share until ctx
	// ends.
	Watch(ctx context.Context) (ChangeSignal, error)
}

// ChangeSignal tells that a commit happened: Version differs from the
// previous call's whenever a commit happened in between (it may also
// differ without one, and a caller must then find nothing new).
type ChangeSignal interface {
	Version(ctx context.Context) (int64, error)
	Close() error
}
