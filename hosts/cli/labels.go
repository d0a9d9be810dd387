package cli

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// idShown is a session id as text output prints it: short, or whole with
// --ids.
func idShown(id string, ids bool) string {
	if ids {
		return id
	}
	return store.ShortSessionID(id)
}

// sessionShown names a session a person addressed: its label and its short
// id (the full id with --ids).
func sessionShown(s store.CoordinationSession, ids bool) string {
	return s.Actor + " (" + idShown(s.ID, ids) + ")"
}

// labels names the sessions of one workspace in text output: by actor
// label, with the short id added where two sessions bear the same label,
// and the full id beside every label with --ids. An id it does not know
// (a session of another workspace) is shown as it is.
type labels struct {
	ids    bool
	byID   map[string]store.CoordinationSession
	bearer map[string]int
}

// sessionLabels reads the workspace's sessions, ended ones included.
func sessionLabels(ctx context.Context, v *view, ids bool) (*labels, error) {
	list, err := v.st.SessionsBySeen(ctx, v.ws.ID)
	if err != nil {
		return nil, err
	}
	return newLabels(list, ids), nil
}

// newLabels names the sessions of list.
func newLabels(list []store.CoordinationSession, ids bool) *labels {
	l := &labels{ids: ids, byID: map[string]store.CoordinationSession{}, bearer: map[string]int{}}
	for _, s := range list {
		l.byID[s.ID] = s
		l.bearer[s.Actor]++
	}
	return l
}

// of names session id.
func (l *labels) of(id string) string {
	s, ok := l.byID[id]
	switch {
	case !ok:
		return id
	case l.ids:
		return s.Actor + " (" + s.ID + ")"
	case l.bearer[s.Actor] > 1:
		return s.Actor + " (" + store.ShortSessionID(s.ID) + ")"
	}
	return s.Actor
}

// labelledReport is a report as --json prints it: every stored field, ids
// included (from_actor is already the sender's label), and the label of the
// session it is addressed to.
type labelledReport struct {
	store.Report
	ToActor *string `json:"to_actor"`
}

// reports labels a list of reports for --json; never nil.
func (l *labels) reports(list []store.Report) []labelledReport {
	out := make([]labelledReport, len(list))
	for i, r := range list {
		out[i] = labelledReport{Report: r, ToActor: l.labelOf(r.ToSessionID)}
	}
	return out
}

// labelOf is the label of an optional session id, nil when absent or not
// known.
func (l *labels) labelOf(id *string) *string {
	if id == nil {
		return nil
	}
	s, ok := l.byID[*id]
	if !ok {
		return nil
	}
	return &s.Actor
}

// holder names a task's assignee: the holding session as of names it,
// else the assignee's label.
func (l *labels) holder(actor, sessionID *string) string {
	if sessionID != nil {
		if _, ok := l.byID[*sessionID]; ok {
			return l.of(*sessionID)
		}
	}
	return deref(actor)
}
