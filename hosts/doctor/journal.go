package doctor

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
)

// Journal check outcomes.
const (
	JournalOK      = "ok"      // opened read-only, every hash chain verified
	JournalMissing = "missing" // no file yet; the first server creates it
	JournalMemory  = "memory"  // an in-memory database has nothing to check
	JournalFailed  = "failed"  // the file cannot be opened or fails verification
	JournalSkipped = "skipped" // the location could not be resolved
)

// JournalCheck is the outcome of opening the database read-only.
type JournalCheck struct {
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// checkJournal opens the database read-only, which validates its shape and
// verifies every workspace's hash chain without writing anything.
func checkJournal(ctx context.Context, db Database) JournalCheck {
	switch {
	case db.Error != "":
		return JournalCheck{Status: JournalSkipped}
	case db.Memory:
		return JournalCheck{Status: JournalMemory}
	}
	if db.Postgres {
		return checkPostgresJournal(ctx, db)
	}
	if _, err := os.Stat(db.Path); errors.Is(err, fs.ErrNotExist) {
		return JournalCheck{Status: JournalMissing, Detail: "created when a server first opens it"}
	}
	st, err := backend.Open(ctx, backend.Options{Path: db.Path, Inspect: true})
	if err != nil {
		if ce, ok := collaberr.As(err); ok {
			return JournalCheck{Status: JournalFailed, Detail: ce.Code + ": " + ce.Message}
		}
		return JournalCheck{Status: JournalFailed, Detail: err.Error()}
	}
	defer st.Close()
	return JournalCheck{Status: JournalOK, Detail: "opened read-only; every workspace's hash chain verifies"}
}

// checkPostgresJournal opens a PostgreSQL journal read-only (creating
// nothing) and runs the schema check in place of SQLite's page check.
func checkPostgresJournal(ctx context.Context, db Database) JournalCheck {
	st, err := backend.Open(ctx, backend.Options{Path: db.url, Inspect: true})
	if errors.Is(err, backend.ErrNoPostgresJournal) {
		return JournalCheck{Status: JournalMissing, Detail: "the database holds no collab schema yet; a server creates it on first open"}
	}
	if err != nil {
		return JournalCheck{Status: JournalFailed, Detail: err.Error()}
	}
	defer st.Close()
	problems, err := st.QuickCheck(ctx)
	if err != nil {
		return JournalCheck{Status: JournalFailed, Detail: err.Error()}
	}
	if len(problems) > 0 {
		return JournalCheck{Status: JournalFailed, Detail: strings.Join(problems, "; ")}
	}
	return JournalCheck{Status: JournalOK, Detail: "connected read-only; the collab schema is current and every table can be read"}
}
