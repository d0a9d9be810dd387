package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
)

// serverHasRead reports whether the kernel's receive queue of the server's
// end of the loopback connection client->server is empty, i.e. the server
// process has read every byte the client sent (/proc/net/tcp). found is
// false until that socket exists.
func serverHasRead(t *testing.T, server, client net.Addr) (read, found bool) {
	t.Helper()
	b, err := os.ReadFile("/proc/net/tcp")
	if err != nil {
		t.Skipf("no /proc/net/tcp: %v", err)
	}
	local, remote := procAddr(t, server), procAddr(t, client)
	for _, line := range strings.Split(string(b), "\n")[1:] {
		f := strings.Fields(line)
		if len(f) < 5 || f[1] != local || f[2] != remote {
			continue
		}
		_, rx, _ := strings.Cut(f[4], ":")
		n, err := strconv.ParseUint(rx, 16, 64)
		return err == nil && n == 0, true
	}
	return false, false
}

// procAddr writes a loopback IPv4 address as /proc/net/tcp does.
func procAddr(t *testing.T, a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	ip := ta.IP.To4()
	if !ok || ip == nil {
		t.Fatalf("not an IPv4 TCP address: %v", a)
	}
	return fmt.Sprintf("%02X%02X%02X%02X:%04X", ip[3], ip[2], ip[1], ip[0], ta.Port)
}

// waitAnswer is the part of a collab_wait answer these tests read.
type waitAnswer struct {
	Result struct {
		Structured struct {
			Woke   *bool  `json:"woke"`
			Reason string `json:"reason"`
			Next   string `json:"next_step"`
		} `json:"structuredContent"`
		IsError bool `json:"isError"`
	} `json:"result"`
}

func decodeWait(t *testing.T, raw string) waitAnswer {
	t.Helper()
	var a waitAnswer
	if err := json.Unmarshal([]byte(raw), &a); err != nil {
		t.Fatalf("collab_wait answer %q: %v", raw, err)
	}
	s := a.Result.Structured
	if a.Result.IsError || s.Woke == nil || *s.Woke || s.Reason != "shutdown" || s.Next == "" {
		t.Fatalf("collab_wait at shutdown answered %s, want woke false, reason shutdown", raw)
	}
	return a
}

// SIGTERM while an idle agent's collab_wait is pending over HTTP: the
// wait is answered at once, as an ordinary result with reason shutdown,
// and the server exits well inside its 15 s drain.
func TestHTTPSigtermAnswersAPendingWaitWithShutdown(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("wait", map[string]string{"README": "x"})
	token := sb.token("waiter")
	srv := sb.serveHTTP()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	c := srv.client(ctx, token, "")
	started, err := c.Call(ctx, "collab_session_start", map[string]any{"root_path": repo, "actor": "idle"})
	if err != nil || started.IsError {
		t.Fatalf("session_start: %v %s", err, started.Raw)
	}
	// The wait goes on a connection of its own; the test signals only
	// once the server has read the whole request from it.
	c.HTTP = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	conns := make(chan [2]net.Addr, 1)
	wrote := make(chan struct{})
	trace := &httptrace.ClientTrace{
		GotConn:      func(i httptrace.GotConnInfo) { conns <- [2]net.Addr{i.Conn.RemoteAddr(), i.Conn.LocalAddr()} },
		WroteRequest: func(httptrace.WroteRequestInfo) { close(wrote) },
	}
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"collab_wait","arguments":{"workspace_id":%q,"timeout_ms":50000}}}`,
		str(started.Structured, "workspace.id"))
	type answer struct {
		status int
		body   string
		err    error
		at     time.Time
	}
	answered := make(chan answer, 1)
	go func() {
		status, text, err := c.Post(httptrace.WithClientTrace(ctx, trace), strings.NewReader(body), int64(len(body)))
		answered <- answer{status, text, err, time.Now()}
	}()
	addrs := <-conns
	<-wrote
	for {
		if read, _ := serverHasRead(t, addrs[0], addrs[1]); read {
			break
		}
		select {
		case a := <-answered:
			t.Fatalf("collab_wait answered before the signal: %d %s %v", a.status, a.body, a.err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	signalled := time.Now()
	srv.cmd.Process.Signal(syscall.SIGTERM)
	var a answer
	select {
	case a = <-answered:
	case <-ctx.Done():
		t.Fatal("collab_wait never answered")
	}
	if a.err != nil || a.status != http.StatusOK {
		t.Fatalf("collab_wait after SIGTERM: status %d, %v (%s)", a.status, a.err, a.body)
	}
	decodeWait(t, a.body)
	<-srv.exited
	exited := time.Now()
	t.Logf("measured: collab_wait answered %v and the server exited %v after SIGTERM", a.at.Sub(signalled), exited.Sub(signalled))
	if srv.code != 0 {
		t.Fatalf("serve exited %d:\n%s", srv.code, srv.stderr.String())
	}
	if d := exited.Sub(signalled); d > 7500*time.Millisecond {
		t.Fatalf("serve took %v to exit, half its drain or more", d)
	}
}

// The same over stdio: SIGTERM during a pending collab_wait answers it
// with reason shutdown before the process exits, well inside the 5 s the
// stdio server gives a signalled session.
func TestStdioSigtermAnswersAPendingWaitWithShutdown(t *testing.T) {
	sb := newSandbox(t)
	repo := sb.repo("wait", map[string]string{"README": "x"})
	cmd := exec.Command(os.Args[0])
	cmd.Env = sb.env()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan time.Time, 1)
	t.Cleanup(func() { cmd.Process.Kill() })
	lines := make(chan map[string]any, 16)
	raws := map[float64]string{}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var msg map[string]any
			if json.Unmarshal(sc.Bytes(), &msg) == nil {
				msg["_raw"] = sc.Text()
				lines <- msg
			}
		}
		close(lines)
		cmd.Wait()
		exited <- time.Now()
	}()
	send := func(msg string) {
		if _, err := stdin.Write([]byte(msg + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	// await reads until the answer to id arrives, keeping the others.
	await := func(id float64) string {
		t.Helper()
		for {
			if raw, ok := raws[id]; ok {
				return raw
			}
			select {
			case msg, ok := <-lines:
				if !ok {
					t.Fatalf("stdout closed before the answer to id %v:\n%s", id, stderr.String())
				}
				if got, ok := msg["id"].(float64); ok {
					raws[got] = msg["_raw"].(string)
				}
			case <-time.After(httpWait):
				t.Fatalf("no answer to id %v", id)
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	await(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"collab_workspace_open","arguments":{"root_path":%q,"actor":"setup"}}}`, repo))
	var opened struct {
		Result struct {
			Structured map[string]any `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(await(2)), &opened); err != nil {
		t.Fatal(err)
	}
	ws := str(opened.Result.Structured, "workspace.id")
	// The ping is read after the wait, so its answer proves the server
	// holds the wait.
	send(fmt.Sprintf(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"collab_wait","arguments":{"workspace_id":%q,"actor":"idle","timeout_ms":50000}}}`, ws))
	send(`{"jsonrpc":"2.0","id":4,"method":"ping"}`)
	await(4)
	if raw, ok := raws[3]; ok {
		t.Fatalf("collab_wait answered before the signal: %s", raw)
	}
	signalled := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	raw := await(3)
	answeredAfter := time.Since(signalled)
	decodeWait(t, raw)
	var at time.Time
	select {
	case at = <-exited:
	case <-time.After(httpWait):
		t.Fatal("the stdio server did not exit after SIGTERM")
	}
	t.Logf("measured: collab_wait answered %v and the server exited %v after SIGTERM", answeredAfter, at.Sub(signalled))
	if d := at.Sub(signalled); d > 4*time.Second {
		t.Fatalf("the stdio server took %v to exit", d)
	}
}

// A client whose token is revoked loses its open GET (SSE) stream within
// a few seconds, not only its next request.
func TestHTTPRevokedTokenClosesItsOpenStream(t *testing.T) {
	sb := newSandbox(t)
	token := sb.token("revokee")
	srv := sb.serveHTTP()
	ctx, cancel := context.WithTimeout(context.Background(), httpWait)
	defer cancel()
	c := srv.client(ctx, token, "")
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Mcp-Session-Id", c.SessionID())
	req.Header.Set("Mcp-Protocol-Version", httpmcptest.ProtocolVersion)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET stream answered %d", resp.StatusCode)
	}
	closed := make(chan time.Time, 1)
	go func() {
		buf := make([]byte, 4096)
		for {
			if _, err := resp.Body.Read(buf); err != nil {
				closed <- time.Now()
				return
			}
		}
	}()
	var out, errOut strings.Builder
	revoked := time.Now()
	if code := run(ctx, []string{"token", "revoke", "revokee", "--db", sb.db}, nil, &out, &errOut); code != 0 {
		t.Fatalf("token revoke: %d %s", code, errOut.String())
	}
	select {
	case at := <-closed:
		t.Logf("measured: the open stream closed %v after the revocation", at.Sub(revoked))
		if d := at.Sub(revoked); d > 10*time.Second {
			t.Fatalf("the stream outlived its token by %v", d)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the revoked client's GET stream is still open after 30 s")
	}
	if strings.Contains(srv.stderr.String(), token) {
		t.Fatal("the server log holds the token")
	}
}
