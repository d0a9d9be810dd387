package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/journal"
)

// credentialDrift counts the ways the credential files of a database were
// found lagging their sessions. Each is a window between a committed
// database change and the credential-file rename that follows it; each has
// a designed way back (see requireCredentialFilesSound).
type credentialDrift struct {
	files         int
	generationLag int // file one generation behind (kill after a resume commit)
	cursorLag     int // file cursor behind the session's (kill after an ack commit)
	endedLeftover int // file of an ended session (kill after an end commit)
	orphans       int // active session without a file (kill after a start commit)
	tempFiles     int // credential temp file left by a kill mid-write
}

// accumulate adds the lags seen after one kill (each is repaired by the
// next resume, so a lag counted twice was hit twice) and keeps the latest
// totals of the states that persist.
func (d *credentialDrift) accumulate(after credentialDrift) {
	d.generationLag += after.generationLag
	d.cursorLag += after.cursorLag
	d.endedLeftover += after.endedLeftover
	d.files, d.orphans, d.tempFiles = after.files, after.orphans, after.tempFiles
}

func (d credentialDrift) String() string {
	return fmt.Sprintf("%d files: %d generation lag, %d cursor lag, %d ended leftovers, %d orphan sessions, %d temp files",
		d.files, d.generationLag, d.cursorLag, d.endedLeftover, d.orphans, d.tempFiles)
}

// sessionRow is what the check needs of a coordination session.
type sessionRow struct {
	status, tokenHash string
	generation        int64
	cursor            journal.Anchor
}

// credentialViolations inspects every file in the credential directory
// against the database. Violations are states with no way back: a torn or
// unreadable file, a file naming no session, a live session whose token
// does not match, a file generation ahead of or more than one behind the
// session, or a last_cursor that is not an anchor of the journal at or
// before the session's cursor.
func credentialViolations(db *sql.DB, dbPath string) (credentialDrift, []string, error) {
	var d credentialDrift
	var bad []string
	dir := filepath.Join(filepath.Dir(dbPath), "collab-sessions")
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		return d, nil, err
	}
	seen := map[string]bool{}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			d.tempFiles++
			continue
		}
		if !strings.HasSuffix(e.Name(), ".json") {
			// A host link (.link) or a channel mark (.channel) sits
			// beside the credential files; neither is one.
			continue
		}
		d.files++
		msg, err := checkCredentialFile(db, filepath.Join(dir, e.Name()), &d, seen)
		if err != nil {
			return d, nil, err
		}
		if msg != "" {
			bad = append(bad, e.Name()+": "+msg)
		}
	}
	err = db.QueryRow(`SELECT count(*) FROM coordination_sessions WHERE status = 'active'`).Scan(&d.orphans)
	d.orphans -= len(seen)
	return d, bad, err
}

func checkCredentialFile(db *sql.DB, path string, d *credentialDrift, seen map[string]bool) (string, error) {
	cred, err := credfile.Read(path)
	if err != nil {
		return "unreadable: " + err.Error(), nil
	}
	var s sessionRow
	err = db.QueryRow(`SELECT status, token_hash, generation, cursor_epoch_id, cursor_sequence, cursor_hash
FROM coordination_sessions WHERE id = ?`, cred.SessionID).Scan(&s.status, &s.tokenHash, &s.generation,
		&s.cursor.EpochID, &s.cursor.Sequence, &s.cursor.Hash)
	if err == sql.ErrNoRows {
		return "names no session", nil
	}
	if err != nil {
		return "", err
	}
	if s.status == "ended" {
		d.endedLeftover++
		if credfile.TokenMatches(s.tokenHash, cred.Token) {
			return "an ended session still accepts the token", nil
		}
		return "", nil
	}
	seen[cred.SessionID] = true
	switch {
	case !credfile.TokenMatches(s.tokenHash, cred.Token):
		return "token does not match the live session", nil
	case cred.Generation == s.generation-1:
		d.generationLag++
	case cred.Generation != s.generation:
		return fmt.Sprintf("generation %d, session at %d", cred.Generation, s.generation), nil
	}
	return checkFileCursor(db, cred.LastCursor, s.cursor, d)
}

func checkFileCursor(db *sql.DB, c *credfile.Cursor, persisted journal.Anchor, d *credentialDrift) (string, error) {
	if c == nil {
		return "", nil
	}
	if c.EpochID != persisted.EpochID || c.Sequence > persisted.Sequence {
		return fmt.Sprintf("cursor %v is not at or before the session's %v", *c, persisted), nil
	}
	if c.Sequence == persisted.Sequence {
		if c.Hash != persisted.Hash {
			return "cursor forks from the session's", nil
		}
		return "", nil
	}
	d.cursorLag++
	if c.Sequence == 0 {
		if c.Hash != journal.GenesisHash {
			return "genesis cursor with a foreign hash", nil
		}
		return "", nil
	}
	var n int
	err := db.QueryRow(`SELECT count(*) FROM events e JOIN workspaces w ON w.id = e.workspace_id
WHERE w.epoch_id = ? AND e.sequence = ? AND e.hash = ?`, c.EpochID, c.Sequence, c.Hash).Scan(&n)
	if err == nil && n != 1 {
		return fmt.Sprintf("cursor %v is not an anchor of the journal", *c), nil
	}
	return "", err
}
