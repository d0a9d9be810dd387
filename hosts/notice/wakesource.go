package notice

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/hostlink"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/claude"
)

// errNoSession means no session was found: no credential file was named
// and no server of this host conversation recorded a link. For a hook or
// monitor that is a normal state, not a fault.
var errNoSession = errors.New("no session: none was found for this host conversation; set AGENTOOL_COLLAB_SESSION_FILE or pass --session-file")

// wakeSource is what peek and watch read: the database, opened read-only,
// and the credential of the session they report on.
type wakeSource struct {
	st   *store.Store
	cred store.Credential
	file string
	db   string // the database as resolved, to reopen for announcements
}

// reload re-reads the credential file, which a resuming process rewrites
// with a new generation and token (core/seat.Reload). It reports whether
// the credential changed; a missing file (the session ended) is no change.
func (w *wakeSource) reload() bool {
	var changed bool
	w.cred, changed = seat.Reload(w.file, w.cred)
	return changed
}

// openWakeSource resolves the database (db, else the environment) and the
// credential: file, else AGENTOOL_COLLAB_SESSION_FILE, else the session
// whose host link matches seek (the caller's host process and
// conversation; see core/hostlink). When nothing is named and nothing
// matches (no database either) it returns errNoSession. Errors never name
// the credential path or its token.
func openWakeSource(ctx context.Context, db, file string, seek func() (hostlink.Seeker, bool)) (*wakeSource, error) {
	if file == "" {
		file = os.Getenv(place.EnvSessionFile)
	}
	if file == "" && seek == nil {
		return nil, errNoSession
	}
	st, err := openWakeStore(ctx, db, file == "")
	if err != nil {
		return nil, err
	}
	if file == "" {
		file = linkedCredential(st.Path(), seek)
	}
	if file == "" {
		st.Close()
		return nil, errNoSession
	}
	c, err := credfile.Read(file)
	if err != nil {
		st.Close()
		return nil, errors.New("the session credential file cannot be read")
	}
	return &wakeSource{st: st, cred: c, file: file, db: st.Path()}, nil
}

// openWakeStore opens the database read-only. While looking for a linked
// session (discover), a missing database means there is no session yet.
func openWakeStore(ctx context.Context, db string, discover bool) (*store.Store, error) {
	if db == "" {
		choice, err := place.Database(place.OS())
		if err != nil {
			return nil, err
		}
		db = choice.Path
	}
	if db == backend.MemoryPath {
		return nil, errors.New("the database is in memory")
	}
	if place.IsPostgres(db) {
		// A server: a read-only Open creates nothing and says what is wrong.
	} else if _, err := os.Stat(db); err != nil {
		if discover {
			return nil, errNoSession
		}
		return nil, fmt.Errorf("no collab database at %s", db)
	}
	return backend.Open(ctx, backend.Options{Path: db, ReadOnly: true})
}

// linkedCredential returns the credential file of the session a server of
// the caller's host conversation linked, "" when there is none.
func linkedCredential(db string, seek func() (hostlink.Seeker, bool)) string {
	b, err := place.BesideDatabase(db)
	if err != nil {
		return ""
	}
	s, ok := seek()
	if !ok {
		return ""
	}
	r, ok := hostlink.Find(b.HostLinkDir(), s)
	if !ok {
		return ""
	}
	return r.CredentialFile
}

// hostSeeker returns the seek function of a process a host started: its
// host process, and the conversation id from the hook's stdin (given) or
// else the host's environment.
func hostSeeker(conversation string) func() (hostlink.Seeker, bool) {
	return func() (hostlink.Seeker, bool) {
		host, ok := hostlink.HostOf(os.Getpid())
		if conversation == "" {
			conversation = os.Getenv(claude.ConversationVariable)
		}
		return hostlink.Seeker{Host: host, Conversation: conversation}, ok
	}
}
