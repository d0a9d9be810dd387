package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// Pane is one tmux pane, named by its unique id.
type Pane struct {
	srv Server
	// ID is the pane's unique id, "%N".
	ID string
}

// State is what a pane is doing now.
type State struct {
	// Command is the name of the pane's foreground program, as tmux's
	// #{pane_current_command} gives it.
	Command string
	// InMode is true while the pane is in copy or view mode, where pasted
	// text would not reach the program.
	InMode bool
	// Dead is true when the pane's program has exited and the pane stays
	// open (remain-on-exit).
	Dead bool
}

// State reads the pane's state; ErrGone when it no longer exists.
func (p Pane) State(ctx context.Context) (State, error) {
	// The command goes last: it is the only field that may hold spaces
	// (tmux replaces a tab in the output with "_"). The pane id comes
	// first because tmux 3.3 answers for a pane that no longer exists
	// with empty fields and success.
	out, err := p.srv.run(ctx, "", "display-message", "-p", "-t", p.ID, "#{pane_id} #{pane_in_mode} #{pane_dead} #{pane_current_command}")
	if err != nil {
		return State{}, err
	}
	f := strings.SplitN(out, " ", 4)
	if len(f) != 4 {
		return State{}, fmt.Errorf("tmux gave an unexpected pane state %q", out)
	}
	if f[0] != p.ID {
		return State{}, ErrGone
	}
	return State{Command: f[3], InMode: f[1] == "1", Dead: f[2] == "1"}, nil
}

// ErrUnsafeLine means Paste was given a line it will not type.
var ErrUnsafeLine = errors.New("refusing to type a line that is empty, starts with / or holds a control character")

// Paste types line into the pane as one bracketed paste (tmux
// paste-buffer -p: the program sees it as pasted text if it enabled
// bracketed paste, else as typed text), then, after enterDelay, a
// separate Enter. It refuses (ErrUnsafeLine) an empty line, one starting
// with "/" after leading spaces, and one holding any C0 or C1 control or
// DEL: such a line could end the paste early, submit part of itself or run
// a slash command. The buffer is private to this process and deleted as
// it is pasted.
func (p Pane) Paste(ctx context.Context, line string, enterDelay time.Duration) error {
	if !SafeLine(line) {
		return ErrUnsafeLine
	}
	buf := fmt.Sprintf("collab-push-%d", os.Getpid())
	if _, err := p.srv.run(ctx, line, "load-buffer", "-b", buf, "-", ";",
		"paste-buffer", "-p", "-d", "-r", "-b", buf, "-t", p.ID); err != nil {
		return err
	}
	if enterDelay > 0 {
		t := time.NewTimer(enterDelay)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
	_, err := p.srv.run(ctx, "", "send-keys", "-t", p.ID, "Enter")
	return err
}

// SafeLine reports whether Paste would type line: not empty, not starting
// with "/" (after leading spaces) and free of control characters.
func SafeLine(line string) bool {
	if strings.HasPrefix(strings.TrimLeft(line, " "), "/") || strings.TrimSpace(line) == "" {
		return false
	}
	for _, r := range line {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0xfffd {
			return false
		}
	}
	return true
}
