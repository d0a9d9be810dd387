package transfer

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/jackc/pgx/v5"
)

// Location is one end of a copy: a PostgreSQL database named by a
// postgres:// or postgresql:// URL (the PG* environment fills in what it
// leaves out), or else a SQLite file path.
type Location struct {
	raw      string
	postgres bool
	shown    string
	secrets  []string
}

// keyValue matches libpq's key=value connection settings ("host=db ...").
var keyValue = regexp.MustCompile(`^\s*[A-Za-z_]+\s*=`)

// ParseLocation reads a copy end from the command line.
func ParseLocation(s string) (Location, error) {
	if strings.TrimSpace(s) == "" {
		return Location{}, errors.New("empty database location")
	}
	if keyValue.MatchString(s) {
		// Read as a path, libpq's key=value settings would become a
		// SQLite file of that name.
		return Location{}, errors.New("PostgreSQL settings must be given as a postgres:// URL " +
			"(key=value settings are not accepted here)")
	}
	if !place.IsPostgres(s) {
		abs, err := filepath.Abs(s)
		if err != nil {
			return Location{}, fmt.Errorf("resolve %s: %w", s, err)
		}
		return Location{raw: abs, shown: abs}, nil
	}
	if _, err := url.Parse(s); err != nil {
		// url's message quotes the input, password and all.
		return Location{}, errors.New("the PostgreSQL address is not a valid URL")
	}
	l := Location{raw: s, postgres: true, shown: place.RedactPostgres(s), secrets: place.PostgresSecrets(s)}
	if env := os.Getenv("PGPASSWORD"); env != "" {
		l.secrets = append(l.secrets, env)
	}
	return l, nil
}

// String is the location as output may show it: a SQLite file's absolute
// path, or the URL with any password removed.
func (l Location) String() string { return l.shown }

// Postgres reports whether the location is a PostgreSQL database.
func (l Location) Postgres() bool { return l.postgres }

// same reports whether a and b name the same database: the same file
// (through any link), or the same server and database name.
func same(a, b Location) bool {
	if a.postgres != b.postgres {
		return false
	}
	if !a.postgres {
		if a.raw == b.raw {
			return true
		}
		ia, errA := os.Stat(a.raw)
		ib, errB := os.Stat(b.raw)
		return errA == nil && errB == nil && os.SameFile(ia, ib)
	}
	ca, errA := pgx.ParseConfig(a.raw)
	cb, errB := pgx.ParseConfig(b.raw)
	if errA != nil || errB != nil {
		return a.raw == b.raw
	}
	return ca.Host == cb.Host && ca.Port == cb.Port && ca.Database == cb.Database
}

// scrub removes the locations' passwords from err's text, so that no
// driver message that quotes a connection string can leak one.
func scrub(err error, locs ...Location) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	changed := false
	for _, l := range locs {
		for _, s := range l.secrets {
			if s != "" && strings.Contains(msg, s) {
				msg = strings.ReplaceAll(msg, s, "xxxxx")
				changed = true
			}
		}
	}
	if !changed {
		return err
	}
	return &scrubbedError{msg: msg, err: err}
}

// scrubbedError is err with a message that no longer holds a password.
type scrubbedError struct {
	msg string
	err error
}

func (e *scrubbedError) Error() string { return e.msg }
func (e *scrubbedError) Unwrap() error { return e.err }
