package store

import "context"

// Delivery is one fact the recipient's side recorded about a report or
// handoff addressed to it: that it was announced through a channel, or
// that the recipient handled or declined it. Whether the recipient has
// read it is never stored; the rules derive it from the recipient's
// cursor. Deliveries live beside the journal, outside the hash chain, so
// recording one appends no event and moves no cursor.
type Delivery struct {
	WorkspaceID string
	// SessionID is the recipient's session.
	SessionID string
	// SubjectKind is "report" or "handoff"; SubjectID its id.
	SubjectKind string
	SubjectID   string
	// Kind is "announced", "handled" or "declined".
	Kind string
	// Channel names the announcement path (hook, monitor, channel, wait,
	// tmux); it is empty for a mark.
	Channel string
	// Note is the recipient's optional word on a mark; nil otherwise.
	Note       *string
	RecordedAt string
}

// Deliveries stores delivery facts. Each (workspace, recipient, subject,
// kind, channel) is kept once, with the time it was first recorded; of
// the marks (handled, declined) a recipient keeps at most one per
// subject.
type Deliveries interface {
	// InsertDelivery stores d unless the same fact (or, for a mark, any
	// mark of that recipient on that subject) is already stored; inserted
	// says which.
	InsertDelivery(ctx context.Context, d Delivery) (inserted bool, err error)
	// DeliveriesOf returns the facts recorded about the given subjects of
	// one kind, ordered by subject id, recorded_at, kind and channel. An
	// engine whose store has never held one returns none.
	DeliveriesOf(ctx context.Context, workspaceID, subjectKind string, subjectIDs []string) ([]Delivery, error)
	// OfferSequence is the journal sequence of a handoff's offered event;
	// found is false when the journal holds none.
	OfferSequence(ctx context.Context, workspaceID, handoffID string) (sequence int64, found bool, err error)
}
