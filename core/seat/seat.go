package seat

import (
	"path/filepath"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
)

// Seat is one caller's place at a store. Its methods do not lock: callers
// that share a seat between goroutines hold its turn (Take, Release)
// around every other method, which is what makes a call see one binding
// from start to end.
type Seat struct {
	turn      chan struct{}
	store     *store.Store
	principal string
	bound     *binding
	// host, when set (Describe), is recorded for every session bound.
	host *store.SessionHost
}

// binding is the credential-bound session the seat acts as. The token
// lives only here and in the credential file; it never enters an answer.
type binding struct {
	sessionID      string
	token          string
	generation     int64
	workspaceID    string
	credentialPath string
	// recovery is set when the host resumed this session in cursor
	// recovery mode: only the cursor reset (and ending) may write.
	recovery   *store.Recovery
	lastCursor *credfile.Cursor
}

func (b *binding) credential() store.Credential {
	return store.Credential{SessionID: b.sessionID, Token: b.token, Generation: b.generation}
}

// New returns an unbound seat over st. principal, when set, names the
// authenticated client the seat serves (an HTTP token's name); it
// prefixes the actor of every session the seat starts.
func New(st *store.Store, principal string) *Seat {
	return &Seat{turn: make(chan struct{}, 1), store: st, principal: principal}
}

// Bound reports whether a session is bound.
func (s *Seat) Bound() bool { return s.bound != nil }

// SessionID is the bound session's id, "" when unbound.
func (s *Seat) SessionID() string {
	if s.bound == nil {
		return ""
	}
	return s.bound.sessionID
}

// Held returns the bound session's credential, recovery or not, and
// whether there is one. It is for the seat's own followers (a channel
// that watches the session), never for an answer.
func (s *Seat) Held() (store.Credential, bool) {
	if s.bound == nil {
		return store.Credential{}, false
	}
	return s.bound.credential(), true
}

// CredentialFile is the path of the bound session's credential file, ""
// when unbound. It is for the process's own bookkeeping; it must never
// enter any output.
func (s *Seat) CredentialFile() string {
	if s.bound == nil {
		return ""
	}
	return s.bound.credentialPath
}

// FileName is the credential file's base name, the only part of its path
// an answer may show.
func (s *Seat) FileName() string { return filepath.Base(s.CredentialFile()) }
