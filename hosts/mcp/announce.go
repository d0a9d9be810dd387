package mcp

import (
	"context"
	"time"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

// announceBudget bounds the write that records an announcement, so a busy
// database never holds up a wait's answer or the next push for long.
const announceBudget = 2 * time.Second

// announce records that the notices given to the session of cred through
// channel announced their subjects (store.RecordAnnouncement). It is best
// effort: an announcement already made stays made whether or not its
// receipt could be written, so a failure is dropped, never shown to the
// agent.
func announce(ctx context.Context, st *store.Store, cred store.Credential, channel string, notices []wake.Notice) {
	subjects := wake.Subjects(notices)
	if len(subjects) == 0 || cred.SessionID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), announceBudget)
	defer cancel()
	st.RecordAnnouncement(ctx, cred, channel, subjects) //nolint:errcheck // best effort, see above
}
