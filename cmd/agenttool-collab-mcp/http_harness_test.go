package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
)

// httpWait bounds every wait of the HTTP process tests; generous, since
// the machine is shared. The tests wait for lines and replies, not time.
const httpWait = 3 * time.Minute

// httpServer is one `serve --http` OS process of a sandbox.
type httpServer struct {
	t      testing.TB
	cmd    *exec.Cmd
	url    string
	stderr *syncBuffer
	exited chan struct{}
	code   int
}

// syncBuffer collects a process's stderr from its copying goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

var listenLine = regexp.MustCompile(`listening on (http://\S+/mcp)`)

// serveHTTP starts `serve --http 127.0.0.1:0 args...` and waits for its
// listening line.
func (s *sandbox) serveHTTP(args ...string) *httpServer {
	s.t.Helper()
	return s.startServe(exec.Command(os.Args[0], append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...))
}

// startServe starts cmd, a `serve --http` command line (possibly wrapped,
// as in another network namespace), with the sandbox's environment, and
// waits for its listening line. The process is killed when the test ends.
func (s *sandbox) startServe(cmd *exec.Cmd) *httpServer {
	s.t.Helper()
	cmd.Env = s.env()
	pipe, err := cmd.StderrPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	h := &httpServer{t: s.t, cmd: cmd, stderr: &syncBuffer{}, exited: make(chan struct{})}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			line := sc.Text()
			h.stderr.Write([]byte(line + "\n"))
			if m := listenLine.FindStringSubmatch(line); m != nil {
				found <- m[1]
			}
		}
		io.Copy(h.stderr, pipe)
		cmd.Wait()
		h.code = cmd.ProcessState.ExitCode()
		close(h.exited)
	}()
	s.t.Cleanup(func() { h.kill() })
	select {
	case h.url = <-found:
	case <-h.exited:
		s.t.Fatalf("serve exited before listening:\n%s", h.stderr.String())
	case <-time.After(httpWait):
		s.t.Fatalf("serve never said it was listening:\n%s", h.stderr.String())
	}
	return h
}

// kill ends the process with SIGKILL (if still running) and waits.
func (h *httpServer) kill() {
	h.cmd.Process.Signal(syscall.SIGKILL)
	<-h.exited
}

// terminate sends SIGTERM and returns the exit code once it exits.
func (h *httpServer) terminate() int {
	h.t.Helper()
	h.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-h.exited:
	case <-time.After(httpWait):
		h.t.Fatalf("serve did not exit after SIGTERM:\n%s", h.stderr.String())
	}
	return h.code
}

// token runs `token add NAME` for the sandbox's database and returns it.
func (s *sandbox) token(name string) string {
	s.t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"token", "add", name, "--db", s.db}, nil, &out, &errOut); code != 0 {
		s.t.Fatalf("token add %s: %d %s", name, code, errOut.String())
	}
	return strings.TrimSpace(out.String())
}

// httpClient returns an initialised HTTP MCP client.
func (h *httpServer) client(ctx context.Context, token, instance string) *httpmcptest.Client {
	h.t.Helper()
	c := &httpmcptest.Client{URL: h.url, Token: token, Instance: instance}
	if err := c.Initialize(ctx); err != nil {
		h.t.Fatalf("initialize: %v\n%s", err, h.stderr.String())
	}
	return c
}

// journalFacts reads what a workspace's journal holds, from the file.
type journalFacts struct {
	events     int
	contiguous bool
	byType     map[string]map[string]int // type -> entity -> count
}

func readJournal(t testing.TB, db, ws string) journalFacts {
	t.Helper()
	conn, err := openInspector(db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	rows, err := conn.Query(inspect(conn, `SELECT sequence, type, entity_id FROM events WHERE workspace_id = ? ORDER BY sequence`), ws)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	f := journalFacts{contiguous: true, byType: map[string]map[string]int{}}
	for rows.Next() {
		var seq int
		var typ, entity string
		if err := rows.Scan(&seq, &typ, &entity); err != nil {
			t.Fatal(err)
		}
		f.events++
		if seq != f.events {
			f.contiguous = false
		}
		if f.byType[typ] == nil {
			f.byType[typ] = map[string]int{}
		}
		f.byType[typ][entity]++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return f
}

// verifyChain runs the verify subcommand on the database; it must pass.
func verifyChain(t testing.TB, db string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--db", db}, nil, &out, &errOut); code != 0 {
		t.Fatalf("verify: %d\n%s%s", code, out.String(), errOut.String())
	}
}
