package sqlite

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agenttool/collab/core/collaberr"
)

// maxIntegrityProblems bounds how many of SQLite's integrity findings a
// report carries.
const maxIntegrityProblems = 10

// QuickCheck runs SQLite's page-level consistency check (PRAGMA
// quick_check) over the whole file and, when the pages are sound, its
// full foreign key check (which an open only runs over rows it has not
// checked before, see foreign_keys.go), and returns what they found
// wrong; an empty result means the pages are sound and every foreign key
// points somewhere. It never writes.
func (s *DB) QuickCheck(ctx context.Context) ([]string, error) {
	problems, err := quickCheck(ctx, s.read)
	if err != nil || len(problems) > 0 {
		return problems, err
	}
	return foreignKeyProblems(ctx, s.read, maxIntegrityProblems)
}

func quickCheck(ctx context.Context, q Querier) ([]string, error) {
	rows, err := q.QueryContext(ctx, fmt.Sprintf("PRAGMA quick_check(%d)", maxIntegrityProblems))
	if err != nil {
		if isCorrupt(err) {
			return []string{err.Error()}, nil
		}
		return nil, fmt.Errorf("quick_check: %w", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		for _, part := range strings.Split(line, "\n") {
			if part = strings.TrimSpace(part); part != "ok" && part != "" {
				problems = append(problems, part)
			}
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return append(problems, err.Error()), nil
		}
		return nil, fmt.Errorf("quick_check: %w", err)
	}
	return problems, nil
}

// isCorrupt reports whether err is SQLite saying the file is malformed or
// not a database at all.
func isCorrupt(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		code := se.Code() & 0xff
		return code == sqlite3.SQLITE_CORRUPT || code == sqlite3.SQLITE_NOTADB
	}
	return false
}

// damageSymptoms are refusals that a damaged page produces as readily as
// a foreign edit does: rows that seem to point nowhere, a chain that does
// not recompute, tables that seem to be missing.
var damageSymptoms = map[collaberr.Code]bool{
	collaberr.DatabaseForeignKeyFailure:  true,
	collaberr.DatabaseJournalInvalid:     true,
	collaberr.DatabaseSchemaMismatch:     true,
	collaberr.DatabasePartialMigration:   true,
	collaberr.MigrationForeignKeyFailure: true,
	collaberr.MigrationIntegrityFailure:  true,
}

// corruptionOr returns database_corrupt when err could be a symptom of
// page damage and SQLite's own check confirms damage; otherwise err. The
// check runs only on this failure path, so a sound file opens at no cost.
func corruptionOr(ctx context.Context, q Querier, err error) error {
	ce, refused := collaberr.As(err)
	if !isCorrupt(err) && !(refused && damageSymptoms[collaberr.Code(ce.Code)]) {
		return err
	}
	problems, checkErr := quickCheck(ctx, q)
	if checkErr != nil || len(problems) == 0 {
		if isCorrupt(err) {
			return errCorrupt([]string{err.Error()})
		}
		return err
	}
	return errCorrupt(problems)
}

func errCorrupt(problems []string) *collaberr.Error {
	return collaberr.New(collaberr.DatabaseCorrupt,
		"SQLite reports the database file damaged (its pages fail PRAGMA quick_check); restore it from a backup "+
			"or copy, and keep the damaged file for inspection").With("problems", problems)
}
