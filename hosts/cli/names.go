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
