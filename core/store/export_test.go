package store

import (
	"context"

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
