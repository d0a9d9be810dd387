package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// received is what the fake agent read: all bytes, and when each read
// ended.
type received struct {
	data  []byte
	reads []time.Time
	ends  []int // offset in data after each read
}

func readReceived(t *testing.T, file string) received {
	t.Helper()
	var r received
	b, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		at, hex, found := strings.Cut(line, " ")
		if !found {
			continue
		}
		ns, _ := strconv.ParseInt(at, 10, 64)
		var chunk []byte
		fmt.Sscanf(hex, "%x", &chunk)
		r.data = append(r.data, chunk...)
		r.reads, r.ends = append(r.reads, time.Unix(0, ns)), append(r.ends, len(r.data))
	}
	return r
}

// typedLine is one bracketed paste followed by its Enter, and when the
// Enter arrived.
type typedLine struct {
	text  string
	enter time.Time
}

// lines splits what the agent received into bracketed pastes each
// followed by Enter; anything else received is returned as stray.
func (r received) lines() (out []typedLine, stray string) {
	const open, closing = "\x1b[200~", "\x1b[201~"
	d := string(r.data)
	pos := 0
	for pos < len(d) {
		if !strings.HasPrefix(d[pos:], open) {
			stray += d[pos : pos+1]
			pos++
			continue
		}
		end := strings.Index(d[pos+len(open):], closing)
		if end < 0 {
			stray += d[pos:]
			break
		}
		text := d[pos+len(open) : pos+len(open)+end]
		pos += len(open) + end + len(closing)
		l := typedLine{text: text}
		if pos < len(d) && d[pos] == '\r' {
			pos++
			for i, e := range r.ends {
				if e >= pos {
					l.enter = r.reads[i]
					break
				}
			}
		} else {
			stray += "<no enter>"
		}
		out = append(out, l)
	}
	return out, stray
}

// waitLines waits until the agent has received n whole lines.
func waitLines(t *testing.T, file string, n int) []typedLine {
	t.Helper()
	deadline := time.Now().Add(wakeDeadline)
	for {
		r := readReceived(t, file)
		got, _ := r.lines()
		if len(got) >= n && !got[len(got)-1].enter.IsZero() {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("the agent received %d typed line(s), want %d; raw %q", len(got), n, r.data)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// requireTmux skips without tmux, except in CI, where .ci/run installs it.
func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err == nil {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true but tmux is not installed: .ci/run must install it (apt-get install -y tmux)")
	}
	t.Skip("tmux push test skipped: no tmux on PATH (apt-get install -y tmux)")
}

// tmuxServer is a private tmux server on a socket of its own, with no
// configuration file, killed when the test ends.
type tmuxServer struct {
	t    *testing.T
	sock string
	env  []string
}

func newTmuxServer(t *testing.T, s *sandbox) *tmuxServer {
	requireTmux(t)
	dir, err := os.MkdirTemp("", "ctmx")
	if err != nil {
		t.Fatal(err)
	}
	ts := &tmuxServer{t: t, sock: filepath.Join(dir, "sock"), env: append(s.env(), "TERM=xterm-256color")}
	ts.run("-f", "/dev/null", "new-session", "-d", "-s", "collab", "-x", "200", "-y", "50", "sleep 100000")
	t.Cleanup(func() {
		exec.Command("tmux", "-S", ts.sock, "kill-server").Run()
		os.RemoveAll(dir)
	})
	return ts
}

func (ts *tmuxServer) run(args ...string) string {
	ts.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-S", ts.sock}, args...)...)
	cmd.Env = ts.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		ts.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// window opens a window running command (through sh -c) and returns its
// pane id.
func (ts *tmuxServer) window(command string, env ...string) string {
	ts.t.Helper()
	args := []string{"new-window", "-d", "-P", "-F", "#{pane_id}"}
	for _, e := range env {
		args = append(args, "-e", e)
	}
	return ts.run(append(args, command)...)
}

// agentPane starts the fake agent in a new pane and waits until it has
// asked for bracketed paste; it returns the pane id and the record file.
func (ts *tmuxServer) agentPane() (string, string) {
	ts.t.Helper()
	record := filepath.Join(ts.t.TempDir(), "received")
	pane := ts.window(shellQuote(os.Args[0]), fakeAgentEnv+"="+record)
	ts.waitScreen(pane, "fake agent ready")
	return pane, record
}

// waitScreen waits until the pane shows want.
func (ts *tmuxServer) waitScreen(pane, want string) {
	ts.t.Helper()
	deadline := time.Now().Add(wakeDeadline)
	for !strings.Contains(ts.run("capture-pane", "-p", "-t", pane), want) {
		if time.Now().After(deadline) {
			ts.t.Fatalf("pane %s never showed %q:\n%s", pane, want, ts.run("capture-pane", "-p", "-t", pane))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitCommand waits until the pane's foreground program's name ends with
// suffix.
func (ts *tmuxServer) waitCommand(pane, suffix string) {
	ts.t.Helper()
	deadline := time.Now().Add(wakeDeadline)
	for {
		got := ts.run("display-message", "-p", "-t", pane, "#{pane_current_command}")
		if strings.HasSuffix(got, suffix) {
			return
		}
		if time.Now().After(deadline) {
			ts.t.Fatalf("pane %s runs %q, not a %s", pane, got, suffix)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// pushProc is a running push process and its stderr lines.
type pushProc struct {
	cmd  *exec.Cmd
	diag chan string
	done chan struct{}
	all  *bytes.Buffer
}

// startPush runs push and waits until it is watching.
func startPush(t *testing.T, s *sandbox, ts *tmuxServer, pane, file string, extra ...string) *pushProc {
	t.Helper()
	args := append([]string{"push", "--tmux", pane, "--tmux-socket", ts.sock, "--session-file", file}, extra...)
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = s.env()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &pushProc{cmd: cmd, diag: make(chan string, 64), done: make(chan struct{}), all: &bytes.Buffer{}}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.all.WriteString(sc.Text() + "\n")
			p.diag <- sc.Text()
		}
		close(p.done)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	p.expect(t, "watching from")
	return p
}

// expect waits for a stderr line holding want and returns it.
func (p *pushProc) expect(t *testing.T, want string) string {
	t.Helper()
	deadline := time.After(wakeDeadline)
	for {
		select {
		case l := <-p.diag:
			if strings.Contains(l, want) {
				return l
			}
		case <-p.done:
			t.Fatalf("push ended before saying %q; stderr:\n%s", want, p.all)
		case <-deadline:
			t.Fatalf("push never said %q; stderr so far:\n%s", want, p.all)
		}
	}
}
