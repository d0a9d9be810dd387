package notice

import (
	"context"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

// announcer records, for the session of a wake source, which reports and
// handoffs one channel (the hook, the monitor) announced to it
// (store.RecordAnnouncement). The source is read-only; the database is
// opened for writing only when a notice announces something not yet
// recorded through that channel, and kept open for the next one.
type announcer struct {
	src     *wakeSource
	channel string
	rw      *store.Store
}

// record is best effort: the notice has been given whether or not its
// receipt could be written, so a failure is dropped and never reaches the
// agent (a hook must stay silent on errors, a monitor's stdout is the
// agent's context).
func (a *announcer) record(ctx context.Context, notices []wake.Notice) {
	if a == nil {
		return
	}
	subjects := wake.Subjects(notices)
	if len(subjects) == 0 {
		return
	}
	snap, err := a.src.st.Session(ctx, a.src.cred.SessionID)
	if err != nil {
		return
	}
	pending, err := a.src.st.PendingAnnouncements(ctx, snap.WorkspaceID, snap.ID, a.channel, subjects)
	if err != nil || len(pending) == 0 {
		return
	}
	if a.rw == nil {
		// A writable open would migrate an older file; a hook never does.
		if old, err := a.src.st.NeedsMigration(ctx); err != nil || old {
			return
		}
		rw, err := backend.Open(ctx, backend.Options{Path: a.src.db})
		if err != nil {
			return
		}
		a.rw = rw
	}
	a.rw.RecordAnnouncement(ctx, a.src.cred, a.channel, pending) //nolint:errcheck // best effort, see above
}

// close releases the writable handle, if one was opened.
func (a *announcer) close() {
	if a != nil && a.rw != nil {
		a.rw.Close()
	}
}
