package gitstate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"

	"github.com/agenttool/collab/core/normalize"
)

// errOutputLimit reports a git process that wrote more than the output cap.
var errOutputLimit = errors.New("git output exceeds the limit")

// waitDelay bounds how long a finished or killed git process may keep its
// stdout pipe open through a lingering child before the pipe is closed.
const waitDelay = 500 * time.Millisecond

// runner runs git the way the contract prescribes ("git -C <dir> …" with
// stdin from the null device, stderr discarded, a timeout per process and a
// cap on stdout), hardened: every call gets the switches of hardeningArgs
// and the environment of hardenedEnv (see harden.go). It is the only place
// in this package that starts a process.
type runner struct {
	timeout      time.Duration
	retryTimeout time.Duration // the one retry after a timeout; 0 means 3 × timeout
	limit        int
	env          []string
	config       []string // extra "-c" arguments, after hardeningArgs
}

// newRunner is a runner with the bounds of l and the hardened environment
// of this process as it is now.
func newRunner(l Limits) runner {
	return runner{timeout: l.GitTimeout, limit: l.GitOutputLimit, env: hardenedEnv(os.Environ())}
}

// withFilters is r with the filter drivers of the given names switched off.
func (r runner) withFilters(names []string) runner {
	r.config = append(append([]string(nil), r.config...), filterOverrides(names)...)
	return r
}

// exec runs one git process and returns its stdout and exit code. The error
// is non-nil when the process did not exit with status 0; exit is -1 when it
// did not exit normally (killed, timed out, over the cap, not started).
//
// A process killed by its own timeout while the caller still waits is run
// once more with the longer retry timeout: on a starved machine a slow git
// is not a "no", and reading it as one would change what Git is said to
// report (a worktree seen as a plain directory, say). Any other failure is
// final at once.
func (r runner) exec(ctx context.Context, dir string, args ...string) (out []byte, exit int, err error) {
	out, exit, err = r.attempt(ctx, r.timeout, dir, args)
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		out, exit, err = r.attempt(ctx, r.retryTimeoutOrDefault(), dir, args)
	}
	return out, exit, err
}

// retryTimeoutOrDefault is the timeout of the one retry after a timeout.
func (r runner) retryTimeoutOrDefault() time.Duration {
	if r.retryTimeout > 0 {
		return r.retryTimeout
	}
	return 3 * r.timeout
}

// attempt runs git once with the given timeout.
func (r runner) attempt(ctx context.Context, timeout time.Duration, dir string, args []string) (out []byte, exit int, err error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	full := make([]string, 0, 2+len(hardeningArgs())+len(r.config)+len(args))
	full = append(append(append(append(full, "-C", dir), hardeningArgs()...), r.config...), args...)
	cmd := exec.CommandContext(ctx, "git", full...)
	cmd.Env = r.env
	if cmd.Env == nil { // a runner not made by newRunner must not inherit everything
		cmd.Env = hardenedEnv(os.Environ())
	}
	buf := &cappedBuffer{limit: r.limit, onOverflow: cancel}
	cmd.Stdout = buf
	cmd.WaitDelay = waitDelay
	err = cmd.Run()
	if err != nil && ctx.Err() == context.DeadlineExceeded && !buf.overflowed {
		err = fmt.Errorf("%w (%v)", context.DeadlineExceeded, err)
	}
	if buf.overflowed {
		return nil, -1, fmt.Errorf("git %s in %s: %w", args[0], dir, errOutputLimit)
	}
	if err == nil {
		return buf.data, 0, nil
	}
	exit = -1
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		exit = ee.ExitCode()
	}
	return buf.data, exit, fmt.Errorf("git %s in %s: %w", args[0], dir, err)
}

// bytes runs a call whose raw stdout is the result; ok is false when it failed.
func (r runner) bytes(ctx context.Context, dir string, args ...string) (out []byte, ok bool) {
	out, _, err := r.exec(ctx, dir, args...)
	return out, err == nil
}

// text runs a call whose stdout is read as a trimmed string; like the
// reference it fails when the process failed or printed only white space.
func (r runner) text(ctx context.Context, dir string, args ...string) gitText {
	out, ok := r.bytes(ctx, dir, args...)
	if !ok {
		return gitText{}
	}
	return textOf(out)
}

// gitText is the trimmed text a git call printed, or ok=false.
type gitText struct {
	value string
	ok    bool
}

// textOf decodes and trims one call's stdout; empty text counts as failure.
func textOf(out []byte) gitText {
	v := normalize.TrimJS(decodeText(out))
	return gitText{value: v, ok: v != ""}
}

// cappedBuffer collects stdout up to limit bytes. Writing past the limit
// marks it overflowed, calls onOverflow (which kills the process) and fails
// the write so that the pipe is closed.
type cappedBuffer struct {
	data       []byte
	limit      int
	overflowed bool
	onOverflow func()
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if len(b.data)+len(p) > b.limit {
		b.overflowed = true
		b.onOverflow()
		return 0, errOutputLimit
	}
	b.data = append(b.data, p...)
	return len(p), nil
}
