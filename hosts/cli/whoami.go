package cli

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/agenttool/collab/core/credfile"
)

// Whoami shows the person's session on the selected workspace, if any,
// without resuming it (no generation moves). The token is never shown.
func Whoami(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("whoami", "whoami [--db FILE] [--root DIR | --workspace W] [--json]", stdout, stderr)
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		path, err := seatPath(v.path, v.ws.ID)
		if err != nil {
			return err
		}
		cred, err := credfile.Read(path)
		if errors.Is(err, os.ErrNotExist) || (err != nil && !fileExists(path)) {
			return &problem{what: "you have no collab session on workspace " + v.ws.ID,
				fix: "one starts on your first action (post, decide, review, task …, handoff …)", code: ExitRefused}
		}
		if err != nil {
			return &problem{what: "your session credential cannot be read: " + err.Error(), fix: "run `collab logout` and act again", code: ExitRefused}
		}
		sess, err := v.st.Session(ctx, cred.SessionID)
		if err != nil {
			return err
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"session": sess, "workspace": v.ws})
		}
		p.line("%s  session %s (%s, generation %d) on %s", sess.Actor, sess.ID, sess.Status, sess.Generation, v.ws.RootPath)
		return nil
	})
}

// Logout ends the person's session (collab_session_end), which removes its
// credential file. Active leases must be resolved first, as for any agent.
func Logout(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("logout", "logout [--db FILE] [--root DIR | --workspace W] [--json]", stdout, stderr)
	if err := parse(fs, c, args); err != nil {
		return UsageExit(err)
	}
	v, err := c.open(ctx)
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	path, err := seatPath(v.path, v.ws.ID)
	v.st.Close()
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	if !fileExists(path) {
		return c.fail(stdout, stderr, &problem{what: "you have no collab session on workspace " + v.ws.ID, fix: "nothing to do", code: ExitRefused})
	}
	return actCommand(ctx, fs, c, nil, stdout, stderr, func(s *personSeat) (any, string, error) {
		reason := "person logged out"
		ended, err := s.seat.End(ctx, &reason)
		if err != nil {
			return nil, "", s.refused(err)
		}
		return encodedAnswer(ended, "ended session "+ended.Session.ID)
	})
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
