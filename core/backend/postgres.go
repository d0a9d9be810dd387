package backend

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/postgres"
)

// ErrNoPostgresJournal is returned by a read-only Open of a PostgreSQL
// database that holds no collab journal yet: readers create nothing.
var ErrNoPostgresJournal = postgres.ErrNoJournal

// Postgres is a journal on a PostgreSQL server as a store.Backend.
type Postgres struct {
	*postgres.Engine
	shown string // the URL without its password
}

// openPostgres opens the PostgreSQL journal opts.Path names (a URL that
// place.IsPostgres accepts). A writable open creates the collab schema on
// first use; a read-only one (ReadOnly or Inspect, which mean the same on
// a server) creates nothing. Synchronous is SQLite's and is ignored: the
// server's synchronous_commit decides durability. The journal's local
// folder (place.PostgresFolder) is created, private to the user, so that
// credential files, tokens and the search index have a home. No error
// holds the password.
func openPostgres(ctx context.Context, opts Options) (store.Backend, error) {
	url, shown := opts.Path, place.RedactPostgres(opts.Path)
	if err := postgres.CheckAddress(url); err != nil {
		return nil, fmt.Errorf("open the PostgreSQL journal %s: %w", shown, err)
	}
	open := postgres.Open
	if opts.ReadOnly || opts.Inspect {
		open = postgres.OpenExisting
	}
	eng, err := open(ctx, url)
	if err != nil {
		if errors.Is(err, postgres.ErrNoJournal) {
			return nil, fmt.Errorf("open the PostgreSQL journal %s: %w", shown, err)
		}
		return nil, scrubSecrets(fmt.Errorf("open the PostgreSQL journal %s: %w", shown, err), url)
	}
	b, err := place.BesideDatabase(url)
	if err == nil {
		err = os.MkdirAll(b.Dir(), 0o700)
	}
	if err != nil {
		eng.Close()
		return nil, fmt.Errorf("create the local folder of the PostgreSQL journal %s: %w", shown, err)
	}
	return Postgres{Engine: eng, shown: shown}, nil
}

// Path is the URL without its password.
func (b Postgres) Path() string { return b.shown }

// NeedsMigration is false: Open accepts only a schema at the binary's
// version (it creates one, or refuses a newer one).
func (b Postgres) NeedsMigration(ctx context.Context) (bool, error) {
	v, err := b.Engine.Version(ctx)
	return err == nil && v < postgres.SchemaVersion, err
}

// UserVersion is the collab schema version the server holds.
func (b Postgres) UserVersion(ctx context.Context) (int64, error) { return b.Engine.Version(ctx) }

// NewChangeProbe reads the server's transaction snapshot (see
// postgres.ChangeSignal).
func (b Postgres) NewChangeProbe() (store.ChangeSignal, error) { return b.Engine.ChangeSignal(), nil }

// Watch is NewChangeProbe: a snapshot read needs no shared watcher.
func (b Postgres) Watch(ctx context.Context) (store.ChangeSignal, error) {
	return b.Engine.ChangeSignal(), nil
}

// scrubSecrets returns err, or, when its text holds a secret of url (the
// userinfo password or a password query parameter), an error with the
// same text and every such secret replaced. The driver's own errors are
// meant not to quote passwords; this makes sure.
func scrubSecrets(err error, url string) error {
	msg := err.Error()
	scrubbed := msg
	for _, secret := range place.PostgresSecrets(url) {
		scrubbed = strings.ReplaceAll(scrubbed, secret, "[redacted]")
	}
	if scrubbed == msg {
		return err
	}
	return errors.New(scrubbed)
}
