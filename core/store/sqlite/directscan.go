//go:build !collab_nodirect

package sqlite

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	sqlite3 "modernc.org/sqlite/lib"
)

// cancelEvery is how many rows a direct read streams between looks at its
// context.
const cancelEvery = 1024

// streamDirect streams the events of h's journal within sp to fn, read in
// one statement on c (so in one snapshot). The events are borrowed: their
// text views SQLite's memory, valid only until fn returns, so fn copies
// whatever it keeps (journal.Chain does, once told). A row no valid
// journal holds (a column of an unexpected type) ends the stream with
// journal.ErrUnreadableEvent.
func streamDirect(ctx context.Context, c *directConn, h store.JournalHead, sp span, fn func(e *journal.Event) error) error {
	stmt, err := c.prepare(journalQuery)
	if err != nil {
		return fmt.Errorf("prepare journal read: %w", err)
	}
	defer stmt.Close()
	if err := bindSpan(stmt, h, sp); err != nil {
		return fmt.Errorf("bind journal read: %w", err)
	}
	e := journal.Event{WorkspaceID: h.WorkspaceID}
	var sid string
	for n := 1; ; n++ {
		if n%cancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		row, err := stmt.step()
		if err != nil {
			return fmt.Errorf("read journal: %w", err)
		}
		if !row {
			return nil
		}
		if !eventFromDirect(&e, &sid, stmt, h.EpochID) {
			return journal.ErrUnreadableEvent
		}
		if err := fn(&e); err != nil {
			return err
		}
	}
}

func bindSpan(stmt *directStmt, h store.JournalHead, sp span) error {
	if err := stmt.bindText(1, h.WorkspaceID); err != nil {
		return err
	}
	if err := stmt.bindText(2, h.EpochID); err != nil {
		return err
	}
	if err := stmt.bindText(3, journal.ProtocolV2); err != nil {
		return err
	}
	if err := stmt.bindInt64(4, sp.after); err != nil {
		return err
	}
	return stmt.bindInt64(5, sp.upTo)
}

// The columns of journalQuery.
const (
	colEpoch = iota
	colSequence
	colID
	colProtocol
	colType
	colEntity
	colActor
	colOccurred
	colPayload
	colPrevHash
	colHash
	colSession
	journalColumns
)

// eventFromDirect fills e from the current row of stmt, as eventFromValues
// does from a driver row, with text that views SQLite's memory (valid
// until the next step); sid holds the session id e points at. False means
// a column had an unexpected type. A NULL epoch or protocol stands for the
// workspace epoch and the current protocol; a NULL session id is no
// session.
func eventFromDirect(e *journal.Event, sid *string, stmt *directStmt, epoch string) bool {
	var types [journalColumns]int32
	for i := range journalColumns {
		types[i] = stmt.columnType(i)
		nullable := i == colEpoch || i == colProtocol || i == colSession
		switch {
		case i == colSequence:
			if types[i] != sqlite3.SQLITE_INTEGER {
				return false
			}
		case types[i] == sqlite3.SQLITE_TEXT, types[i] == sqlite3.SQLITE_NULL && nullable:
		default:
			return false
		}
	}
	text := func(i int) string {
		b := stmt.columnText(i)
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	e.EpochID, e.Protocol, e.SessionID = epoch, journal.ProtocolV2, nil
	if types[colEpoch] == sqlite3.SQLITE_TEXT {
		e.EpochID = text(colEpoch)
	}
	e.Sequence = stmt.columnInt64(colSequence)
	e.ID = text(colID)
	if types[colProtocol] == sqlite3.SQLITE_TEXT {
		e.Protocol = text(colProtocol)
	}
	e.Type, e.EntityID, e.Actor, e.OccurredAt = text(colType), text(colEntity), text(colActor), text(colOccurred)
	e.PayloadJSON = stmt.columnText(colPayload)
	e.PrevHash, e.Hash = text(colPrevHash), text(colHash)
	if types[colSession] == sqlite3.SQLITE_TEXT {
		*sid = text(colSession)
		e.SessionID = sid
	}
	return true
}
