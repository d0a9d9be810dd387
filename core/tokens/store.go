package tokens

import (
	"os"
	"sync"
	"time"
)

// Store answers who a presented token names, from the token file at a
// path. Every Check stats the file and re-reads it when its size,
// modification time or identity changed, so additions and revocations
// made by another process apply to the next request. Safe for concurrent
// use.
type Store struct {
	path string
	now  func() time.Time

	mu      sync.Mutex
	stamp   os.FileInfo
	entries []Entry
	err     error
}

// NewStore returns a Store over the token file at path. now may be nil
// (time.Now).
func NewStore(path string, now func() time.Time) *Store {
	if now == nil {
		now = time.Now
	}
	return &Store{path: path, now: now}
}

// Check returns the client name token belongs to. An unknown, revoked or
// expired token, or an unreadable token file, admits nobody.
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
	fi, err := os.Stat(s.path)
	if err != nil {
		if os.IsNotExist(err) {
			s.stamp, s.entries, s.err = nil, nil, nil
			return nil, nil
		}
		return nil, err
	}
	if s.stamp != nil && os.SameFile(s.stamp, fi) && s.stamp.Size() == fi.Size() && s.stamp.ModTime().Equal(fi.ModTime()) {
		return s.entries, s.err
	}
	s.entries, s.err = Read(s.path)
	s.stamp = fi
	return s.entries, s.err
}
