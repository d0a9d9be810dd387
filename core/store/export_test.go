package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/journal"
)

// The names below let the external tests (package store_test), which open
// real engines through core/backend, reach the few internals they check.

type (
	NewEvent    = newEvent
	ReportDraft = reportDraft
)

var (
	DecisionBody           = decisionBody
	ResolveEvidence        = resolveEvidence
	StoredCheckpointDigest = storedCheckpointDigest
	FindReport             = findReport
	FindSession            = findSession
	CompletionObsolete     = completionObsolete
	UnresolvedChallenge    = unresolvedChallenge
	PendingOffers          = pendingOf
)

// Engine is the store's engine seen through the port.
func (s *Store) Engine() Engine { return s.engine() }

// BackendOf is the backend a store was made with.
func BackendOf(s *Store) Backend { return s.be }

// AppendEvent is appendEvent.
func (s *Store) AppendEvent(ctx context.Context, tx Journal, workspaceID string, ne NewEvent) (journal.Event, error) {
	return s.appendEvent(ctx, tx, workspaceID, ne)
}

// AppendReportInternal is appendReportInternal.
func (s *Store) AppendReportInternal(ctx context.Context, tx Tx, sess CoordinationSession, d ReportDraft) (Report, error) {
	return s.appendReportInternal(ctx, tx, sess, d)
}

// everyTask is a Tx whose task lists hold every task the filter's other
// fields keep, whatever its Set: the read collab_next and
// collab_workspace_status made before they were bounded.
type everyTask struct{ Tx }

func (e everyTask) Tasks(ctx context.Context, workspaceID string, f TaskFilter) ([]Task, error) {
	f.Set = EveryTask
	return e.Tx.Tasks(ctx, workspaceID, f)
}

// NextBoundedAndFull computes, in one snapshot, what collab_next shows a
// viewer (the session sessionID, or the label when sessionID is empty)
// at the head twice: as the store reads it, and over every task.
func (s *Store) NextBoundedAndFull(ctx context.Context, wsID, sessionID, label string) (bounded, full Next, err error) {
	err = s.readTx(ctx, func(tx Tx) error {
		v := viewer{actor: label}
		if sessionID != "" {
			sess, found, err := findSession(ctx, tx, sessionID)
			if err != nil || !found {
				return fmt.Errorf("session %s (found %v): %w", sessionID, found, err)
			}
			v = viewer{session: &sess, actor: sess.Actor}
		}
		if v.offers, err = pendingOf(ctx, tx, wsID, ""); err != nil {
			return err
		}
		now := s.nowISO()
		if bounded, err = s.nextView(ctx, tx, wsID, 0, 1, v, now); err != nil {
			return err
		}
		full, err = s.nextView(ctx, everyTask{tx}, wsID, 0, 1, v, now)
		return err
	})
	return bounded, full, err
}

// StatusByFullList is the task half of collab_workspace_status as it was
// computed before it was bounded: every task listed and tallied.
func (s *Store) StatusByFullList(ctx context.Context, wsID string) (WorkspaceStatus, error) {
	var st WorkspaceStatus
	err := s.readTx(ctx, func(tx Tx) error {
		tasks, err := listTasks(ctx, tx, wsID, "", s.nowISO())
		st.tally(tasks)
		return err
	})
	return st, err
}
