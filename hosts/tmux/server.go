package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// ErrGone means the pane, or its whole tmux server, no longer exists.
var ErrGone = errors.New("the tmux pane is gone")

// Server is one tmux server, reached through the tmux client on PATH.
// Socket is the server's socket path (tmux -S); empty means the server
// tmux itself would pick ($TMUX inside tmux, else the default socket).
type Server struct {
	Socket string
}

// run runs one tmux client command with stdin and returns its standard
// output without the trailing newline.
func (s Server) run(ctx context.Context, stdin string, args ...string) (string, error) {
	if s.Socket != "" {
		args = append([]string{"-S", s.Socket}, args...)
	}
	cmd := exec.CommandContext(ctx, "tmux", args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if isGone(msg) {
			return "", ErrGone
		}
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("tmux %s: %s", args[argStart(s)], msg)
	}
	return strings.TrimSuffix(out.String(), "\n"), nil
}

// argStart is the index of the tmux command name in run's args.
func argStart(s Server) int {
	if s.Socket != "" {
		return 2
	}
	return 0
}

// isGone reports whether tmux's error says the target or server does not
// exist (tmux 3.x wording).
func isGone(msg string) bool {
	for _, s := range []string{"can't find pane", "can't find window", "can't find session", "no server running", "error connecting to"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// Resolve names a pane by any tmux target (%3, session:window.pane, ...)
// and returns it by its unique id.
func (s Server) Resolve(ctx context.Context, target string) (Pane, error) {
	if target == "" || strings.HasPrefix(target, "-") {
		return Pane{}, fmt.Errorf("%q is not a tmux pane target", target)
	}
	id, err := s.run(ctx, "", "display-message", "-p", "-t", target, "#{pane_id}")
	if err != nil {
		return Pane{}, err
	}
	if !strings.HasPrefix(id, "%") {
		return Pane{}, fmt.Errorf("tmux named no pane for %q", target)
	}
	return Pane{srv: s, ID: id}, nil
}
