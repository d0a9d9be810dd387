package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
)

// errNoSession means no credential file was named: for a hook or monitor
// that is a normal state (the session file variable is not set), not a fault.
var errNoSession = errors.New("no session: set AGENTOOL_COLLAB_SESSION_FILE or pass --session-file")

// wakeSource is what peek and watch read: the database, opened read-only,
// and the credential of the session they report on.
type wakeSource struct {
	st   *store.Store
	cred store.Credential
	file string
	db   string // the database as resolved, to reopen for announcements
}

// reload re-reads the credential file, which a resuming process rewrites
// with a new generation and token. It reports whether the credential
// changed; a missing file (the session ended) is no change.
func (w *wakeSource) reload() bool {
	c, err := credfile.Read(w.file)
	if err != nil {
		return false
	}
	// The cursor the file records is the resuming process's, not ours.
	changed := c.SessionID != w.cred.SessionID || c.Token != w.cred.Token || c.Generation != w.cred.Generation
	w.cred = c
	return changed
}

// openWakeSource resolves the database (db, else the environment) and the
// credential (file, else AGENTOOL_COLLAB_SESSION_FILE). Errors never name
// the credential path or its token.
func openWakeSource(ctx context.Context, db, file string) (*wakeSource, error) {
	if file == "" {
		file = os.Getenv(place.EnvSessionFile)
	}
	if file == "" {
		return nil, errNoSession
	}
	c, err := credfile.Read(file)
	if err != nil {
		return nil, errors.New("the session credential file cannot be read")
	}
	if db == "" {
		choice, err := place.Database(place.OS())
		if err != nil {
			return nil, err
		}
		db = choice.Path
	}
	if db == store.MemoryPath {
		return nil, errors.New("the database is in memory")
	}
	if place.IsPostgres(db) {
		// A server: a read-only Open creates nothing and says what is wrong.
	} else if _, err := os.Stat(db); err != nil {
		return nil, fmt.Errorf("no collab database at %s", db)
	}
	st, err := store.Open(ctx, store.Options{Path: db, ReadOnly: true})
	if err != nil {
		return nil, err
	}
	return &wakeSource{st: st, cred: c, file: file, db: db}, nil
}
