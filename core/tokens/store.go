package tokens

import (
	"errors"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/agenttool/collab/core/fileowner"
)

// Store answers who a presented token names, from the token file at a
// path. Every Check lstats the file and re-reads it when its identity,
// size, modification time, mode, owner or link count changed, so additions
// and revocations made by another process apply to the next request, and a
// file that stops being private to this user admits nobody from the next
// request on. Safe for concurrent use.
type Store struct {
	path string
	now  func() time.Time

	mu      sync.Mutex
	stamp   os.FileInfo
	entries []Entry
	err     error
	// reported is the problem last handed to onProblem ("" for none).
	reported  string
	onProblem func(problem error)
}

// NewStore returns a Store over the token file at path. now may be nil
// (time.Now).
func NewStore(path string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{path: path, now: now}
}

// OnProblem makes the Store call report whenever its verdict on the file
// changes: with the problem when the file stops being trusted (an
// UnsafeFileError, or a read failure), with nil when it is trusted again.
// The problem never names the path or a token. Call it before the Store is
// shared; report is called with the Store's lock held, so it must not call
// back into the Store.
func (s *Store) OnProblem(report func(problem error)) { s.onProblem = report }

// Problem loads the file now and returns why no token would be admitted
// (nil when the file is trusted or absent), reporting it as OnProblem
// says. A server calls it once at startup.
func (s *Store) Problem() error {
	_, err := s.current()
	return err
}

// Check returns the client name token belongs to. An unknown, revoked or
// expired token, or a token file that is unreadable or not private to
// this user, admits nobody.
func (s *Store) Check(token string) (string, bool) {
	if token == "" {
		return "", false
	}
	entries, err := s.current()
	if err != nil {
		return "", false
	}
	return match(entries, token, s.now())
}

// current returns the file's entries, re-read when the file changed.
func (s *Store) current() ([]Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fi, err := os.Lstat(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		s.stamp, s.entries, s.err = nil, nil, nil
	case err != nil:
		s.stamp, s.entries, s.err = nil, nil, pathless("inspect", err)
	case s.stamp != nil && unchanged(s.stamp, fi):
	default:
		s.entries, s.err = Read(s.path)
		s.stamp = fi
	}
	s.report(s.err)
	return s.entries, s.err
}

// unchanged reports whether two lstats of the file agree on everything the
// verdict depends on.
func unchanged(a, b os.FileInfo) bool {
	return os.SameFile(a, b) && a.Size() == b.Size() && a.ModTime().Equal(b.ModTime()) && a.Mode() == b.Mode() &&
		fileowner.Mine(a) == fileowner.Mine(b) && fileowner.LinkCount(a) == fileowner.LinkCount(b)
}

// report hands err to onProblem when the verdict changed.
func (s *Store) report(err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	if msg == s.reported {
		return
	}
	s.reported = msg
	if s.onProblem != nil {
		s.onProblem(err)
	}
}
