package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/liveness"
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
// workspace v shows. A session is live as the people's views tell it
// (core/liveness): one whose host is gone and whose lease time has passed
// no longer answers to its label, though its id still names it.
func (c *common) resolveNames(ctx context.Context, v *view) error {
	var known *sessionsNow
	for _, n := range c.names {
		if !n.Given() {
			continue
		}
		if known == nil {
			var err error
			if known, err = readSessionsNow(ctx, v); err != nil {
				return err
			}
		}
		sess, err := store.ChooseLiveSession(known.list, n.typed, known.live)
		var un *store.UnresolvedSession
		if errors.As(err, &un) {
			return unresolved("--"+n.flag, un, known.lives)
		}
		if err != nil {
			return err
		}
		n.session = sess
	}
	return nil
}

// sessionsNow is every session of a workspace and how each is now.
type sessionsNow struct {
	list  []store.CoordinationSession
	lives map[string]liveness.Life
}

func readSessionsNow(ctx context.Context, v *view) (*sessionsNow, error) {
	list, err := v.st.SessionsBySeen(ctx, v.ws.ID)
	if err != nil {
		return nil, err
	}
	tasks, err := v.st.ListTasks(ctx, v.ws.ID, "")
	if err != nil {
		return nil, fmt.Errorf("read the tasks the sessions hold: %w", err)
	}
	states, err := sessionStates(ctx, v, list, tasks)
	if err != nil {
		return nil, err
	}
	k := &sessionsNow{list: list, lives: make(map[string]liveness.Life, len(list))}
	for i, s := range list {
		k.lives[s.ID] = states[i]
	}
	return k, nil
}

// live reports whether s is active or stale, not ended.
func (k *sessionsNow) live(s store.CoordinationSession) bool {
	return liveness.Live(s, k.lives)
}

// unresolved is the problem a refused name makes: what was typed (given
// as flag, a flag or an argument's name), the candidates one per line
// with their state and host where lives tells them, and what to type
// instead.
func unresolved(flag string, un *store.UnresolvedSession, lives map[string]liveness.Life) error {
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
		fmt.Fprintf(&what, "\n    %s", candidateLine(c, lives))
	}
	fix := "start an agent session in this repository first, or check --db and --workspace"
	if len(un.Candidates) > 0 {
		fix = fmt.Sprintf("give %s a short id from the list (%s %s) or a label only one live session bears", flag, flag, un.Candidates[0].ShortID)
	}
	return &problem{what: what.String(), fix: fix, code: ExitRefused, refusal: "session_not_found"}
}

// candidateLine is one candidate: label, state, host, last seen, short id.
func candidateLine(c store.SessionCandidate, lives map[string]liveness.Life) string {
	life, ok := lives[c.ID]
	if !ok {
		return c.String()
	}
	host := life.Host
	if host == "" {
		host = "host not recorded"
	}
	return fmt.Sprintf("%s (%s, %s, last seen %s, %s)", c.Actor, life.State, host, shortTime(c.LastSeenAt), c.ShortID)
}
