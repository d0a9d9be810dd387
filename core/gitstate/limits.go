package gitstate

import "time"

// Bounds fixed by the contract. The untracked digest gives up (state_sha256
// becomes null) rather than exceed them.
const (
	// MaxUntrackedPaths is the largest number of untracked paths hashed.
	MaxUntrackedPaths = 10_000
	// MaxUntrackedBytes is the total size of untracked file contents and
	// symlink targets hashed for one checkpoint (64 MiB).
	MaxUntrackedBytes = 64 << 20
	// UntrackedDeadline is how long hashing untracked files may take.
	UntrackedDeadline = 2 * time.Second
	// GitTimeout is how long one git process may run before it is killed.
	GitTimeout = 5 * time.Second
	// GitOutputLimit is the most stdout one git process may produce; a
	// process that writes more counts as failed.
	GitOutputLimit = 1 << 20
)

// Limits carries the bounds applied while inspecting and capturing. A zero
// field means the contract's value, so Limits{} behaves exactly as the
// contract says and tests can shrink one bound at a time. A negative
// UntrackedDeadline has always passed.
type Limits struct {
	MaxUntrackedPaths int
	MaxUntrackedBytes int64
	UntrackedDeadline time.Duration
	GitTimeout        time.Duration
	GitOutputLimit    int
}

// withDefaults returns l with every zero field replaced by the contract value.
func (l Limits) withDefaults() Limits {
	if l.MaxUntrackedPaths == 0 {
		l.MaxUntrackedPaths = MaxUntrackedPaths
	}
	if l.MaxUntrackedBytes == 0 {
		l.MaxUntrackedBytes = MaxUntrackedBytes
	}
	if l.UntrackedDeadline == 0 {
		l.UntrackedDeadline = UntrackedDeadline
	}
	if l.GitTimeout == 0 {
		l.GitTimeout = GitTimeout
	}
	if l.GitOutputLimit == 0 {
		l.GitOutputLimit = GitOutputLimit
	}
	return l
}
