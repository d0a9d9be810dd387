package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// A sessionName is a flag that names a session the way a person thinks of
// it: an actor label, a short id or a full id (store.ChooseSession). It is
// resolved when the command opens its workspace, before a person's seat is
// taken, so a name that is unknown or ambiguous is refused with the
// candidates and writes nothing.
type sessionName struct {
	flag  string
	typed string
	// session is the resolved session; its ID is empty until then.
	session store.CoordinationSession
}

// sessionFlag defines flag name on fs as a sessionName that c resolves
// when it opens the workspace.
func (c *common) sessionFlag(fs *flag.FlagSet, name, usage string) *sessionName {
	n := &sessionName{flag: name}
	fs.Var(n, name, usage)
	c.names = append(c.names, n)
	return n
}

// String is what was typed.
func (n *sessionName) String() string { return n.typed }

// Set keeps what was typed; resolution waits for the workspace.
func (n *sessionName) Set(v string) error {
	n.typed = v
	return nil
}

// Given reports whether the flag was set.
func (n *sessionName) Given() bool { return n.typed != "" }

// ID is the resolved session's id, "" when the flag was not given.
func (n *sessionName) ID() string { return n.session.ID }

// Session is the resolved session (zero when the flag was not given).
func (n *sessionName) Session() store.CoordinationSession { return n.session }

// resolveNames resolves every session flag that was given against the
// workspace v shows.
func (c *common) resolveNames(ctx context.Context, v *view) error {
	for _, n := range c.names {
		if !n.Given() {
			continue
		}
		sess, err := v.st.ResolveSession(ctx, v.ws.ID, n.typed)
		var un *store.UnresolvedSession
		if errors.As(err, &un) {
			return unresolved("--"+n.flag, un)
		}
		if err != nil {
			return err
		}
		n.session = sess
	}
	return nil
}

// unresolved is the problem a refused name makes: what was typed (given
// as flag, a flag or an argument's name), the candidates one per line,
// and what to type instead.
func unresolved(flag string, un *store.UnresolvedSession) error {
	var what strings.Builder
	switch {
	case un.Ambiguous:
		fmt.Fprintf(&what, "refused (session_not_found): %s %q names %d sessions:", flag, un.Typed, len(un.Candidates))
	case len(un.Candidates) == 0:
		fmt.Fprintf(&what, "refused (session_not_found): %s %q names no session, and this workspace has none live", flag, un.Typed)
	default:
		fmt.Fprintf(&what, "refused (session_not_found): %s %q names no live session; the sessions are:", flag, un.Typed)
	}
	for _, c := range un.Candidates {
		fmt.Fprintf(&what, "\n    %s", c)
	}
	fix := "start an agent session in this repository first, or check --db and --workspace"
	if len(un.Candidates) > 0 {
		fix = fmt.Sprintf("give %s a short id from the list (%s %s) or a label only one live session bears", flag, flag, un.Candidates[0].ShortID)
	}
	return &problem{what: what.String(), fix: fix, code: ExitRefused}
}

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
	l := &labels{ids: ids, byID: map[string]store.CoordinationSession{}, bearer: map[string]int{}}
	for _, s := range list {
		l.byID[s.ID] = s
		l.bearer[s.Actor]++
	}
	return l, nil
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

// holder names a task's assignee: its label, and its session as of does
// when the task is held by a session.
func (l *labels) holder(actor, sessionID *string) string {
	if sessionID != nil {
		if _, ok := l.byID[*sessionID]; ok {
			return l.of(*sessionID)
		}
	}
	return deref(actor)
}
