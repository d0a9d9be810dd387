package httpserve_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/httpserve"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
)

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// Every refusal of the guard has its own status, and a refused request
// reaches no session.
func TestGuardAnswers(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	alice, bob := r.token("alice"), r.token("bob")
	aliceSession := r.client(alice, "")
	_, port, _ := net.SplitHostPort(r.addr)
	cases := []struct {
		name   string
		header map[string]string
		host   string
		body   string
		want   int
	}{
		{"no token", nil, "", initBody, http.StatusUnauthorized},
		{"wrong scheme", map[string]string{"Authorization": "Basic " + alice}, "", initBody, http.StatusUnauthorized},
		{"unknown token", map[string]string{"Authorization": "Bearer collab_nope"}, "", initBody, http.StatusUnauthorized},
		{"valid token", map[string]string{"Authorization": "Bearer " + alice}, "", initBody, http.StatusOK},
		{"lowercase scheme", map[string]string{"Authorization": "bearer " + alice}, "", initBody, http.StatusOK},
		{"foreign origin", map[string]string{"Authorization": "Bearer " + alice, "Origin": "https://evil.example"}, "", initBody, http.StatusForbidden},
		{"null origin", map[string]string{"Authorization": "Bearer " + alice, "Origin": "null"}, "", initBody, http.StatusForbidden},
		{"own origin", map[string]string{"Authorization": "Bearer " + alice, "Origin": "http://" + r.addr}, "", initBody, http.StatusOK},
		{"rebinding host", map[string]string{"Authorization": "Bearer " + alice}, "evil.example", initBody, http.StatusForbidden},
		{"rebinding host on this port", map[string]string{"Authorization": "Bearer " + alice}, "evil.example:" + port, initBody, http.StatusForbidden},
		{"loopback name on another port", map[string]string{"Authorization": "Bearer " + alice}, "127.0.0.1:1", initBody, http.StatusForbidden},
		{"uppercase localhost on this port", map[string]string{"Authorization": "Bearer " + alice}, "LOCALHOST:" + port, initBody, http.StatusOK},
		{"another client's session", map[string]string{"Authorization": "Bearer " + bob, "Mcp-Session-Id": aliceSession.SessionID()}, "",
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, http.StatusForbidden},
		{"malformed json", map[string]string{"Authorization": "Bearer " + alice}, "", `{"jsonrpc":`, http.StatusBadRequest},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(ctxT(t), http.MethodPost, r.url, strings.NewReader(c.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			for k, v := range c.header {
				req.Header.Set(k, v)
			}
			if c.host != "" {
				req.Host = c.host
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, c.want)
			}
			if strings.Contains(string(body), alice) || strings.Contains(string(body), bob) {
				t.Fatal("an answer echoes a token")
			}
		})
	}
	if log := r.log.String(); strings.Contains(log, alice) || strings.Contains(log, bob) || !strings.Contains(log, "status=401") {
		t.Fatalf("the log holds a token or misses the refusals:\n%s", log)
	}
	// The session whose neighbour sent garbage still works.
	if _, err := aliceSession.Call(ctxT(t), "collab_workspace_open", map[string]any{"root_path": r.repo, "actor": "a"}); err != nil {
		t.Fatalf("session after malformed requests: %v", err)
	}
}

// The /healthz probe needs no token and says nothing but ok.
func TestHealthzNeedsNoTokenAndHoldsNoData(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	resp, err := http.Get("http://" + r.addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(body) != "ok\n" {
		t.Fatalf("healthz: %d %q", resp.StatusCode, body)
	}
}

// A 10 MB body is refused with 413 whether it announces its length or is
// streamed chunked, and nothing of it is written.
func TestTenMegabyteBodiesAreRefused(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	c := r.client(r.token("alice"), "")
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": r.repo, "actor": "a"}), "workspace", "id")
	big := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"collab_report_append","arguments":{"workspace_id":"` + ws +
		`","actor":"a","idempotency_key":"big","kind":"observation","body":"` + strings.Repeat("x", 10<<20) + `"}}}`
	// Announced length: the answer comes from the headers alone, so the
	// client sends only a little of the body and reads the answer.
	conn, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nMcp-Session-Id: %s\r\n"+
		"Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n\r\n%s",
		r.addr, c.Token, c.SessionID(), len(big), big[:1024])
	conn.SetReadDeadline(time.Now().Add(deadline))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to an announced 10 MB body: %v", err)
	}
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("announced 10 MB body: status %d, want 413", resp.StatusCode)
	}
	// Chunked, with no length: the server stops reading at the limit. The
	// client may see its upload cut off; when it reads an answer, it is 413.
	status, _, err := c.Post(ctxT(t), io.MultiReader(strings.NewReader(big)), -1)
	if err == nil && status != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked 10 MB body: status %d, want 413", status)
	}
	list := ok(t, c, "collab_report_list", map[string]any{"workspace_id": ws})
	if reports, _ := list["reports"].([]any); len(reports) != 0 {
		t.Fatalf("a refused body was written: %v", reports)
	}
}

// A revoked token's next request is refused, on the session it had open.
func TestRevokedTokenIsRefusedOnTheNextCall(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{})
	c := r.client(r.token("carol"), "")
	ok(t, c, "collab_workspace_open", map[string]any{"root_path": r.repo, "actor": "a"})
	if err := tokens.Revoke(r.tokens, "carol"); err != nil {
		t.Fatal(err)
	}
	_, err := c.Call(ctxT(t), "collab_workspace_open", map[string]any{"root_path": r.repo, "actor": "a"})
	var se *httpmcptest.StatusError
	if !errors.As(err, &se) || se.Status != http.StatusUnauthorized {
		t.Fatalf("call after revoke: %v, want 401", err)
	}
}

// A client with its maximum of requests in flight gets 429 for one more;
// another client is not affected.
func TestPerClientConcurrencyIsBounded(t *testing.T) {
	r := newRig(t, func(c *httpserve.Config) { c.ClientConcurrency = 1 }, httpserve.Timeouts{})
	tok := r.token("dave")
	c := r.client(tok, "")
	other := r.client(r.token("erin"), "")
	// Hold one request open on a connection of its own (never one from
	// a pool): its body never ends until we say so. A poll may reach the
	// server first and take the slot for a moment; the held request is
	// then refused, and held again.
	holder := &httpmcptest.Client{URL: r.url, Token: tok,
		HTTP: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}}
	var pw *io.PipeWriter
	held := make(chan error, 1)
	hold := func() {
		var pr *io.PipeReader
		pr, pw = io.Pipe()
		go func() {
			status, body, err := holder.Post(context.Background(), pr, -1)
			if err == nil {
				err = &httpmcptest.StatusError{Status: status, Body: body}
			}
			held <- err
		}()
		pw.Write([]byte(`{"jsonrpc":"2.0","id":77,"method":"ping"`))
	}
	hold()
	// A second request is 429 once the held one has the slot; until then
	// it may pass.
	var status int
	for wait := time.Now().Add(deadline); time.Now().Before(wait); {
		var err error
		status, _, err = c.Post(ctxT(t), strings.NewReader(`{"jsonrpc":"2.0","id":78,"method":"ping"}`), -1)
		if err != nil {
			t.Fatal(err)
		}
		if status == http.StatusTooManyRequests {
			break
		}
		select {
		case err := <-held:
			var se *httpmcptest.StatusError
			if !errors.As(err, &se) || se.Status != http.StatusTooManyRequests {
				t.Fatalf("the held request ended before its body did: %v", err)
			}
			hold()
		case <-time.After(10 * time.Millisecond): // poll, bounded by deadline
		}
	}
	if status != http.StatusTooManyRequests {
		t.Fatalf("second request in flight: %d, want 429", status)
	}
	if _, err := other.Call(ctxT(t), "collab_workspace_open", map[string]any{"root_path": r.repo, "actor": "a"}); err != nil {
		t.Fatalf("another client was limited too: %v", err)
	}
	pw.Write([]byte("}"))
	pw.Close()
	<-held
}

// A client that sends its headers too slowly is disconnected by the server
// (slowloris); it holds no connection forever.
func TestSlowHeadersAreCutOff(t *testing.T) {
	r := newRig(t, nil, httpserve.Timeouts{ReadHeader: 300 * time.Millisecond, Read: 300 * time.Millisecond})
	conn, err := net.Dial("tcp", r.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.Write([]byte("POST /mcp HTTP/1.1\r\nHost: " + r.addr + "\r\nX-Slow: "))
	conn.SetReadDeadline(time.Now().Add(deadline))
	buf := make([]byte, 512)
	var got bytes.Buffer
	for {
		n, err := conn.Read(buf)
		got.Write(buf[:n])
		if err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("the server kept a slow client's connection open")
			}
			break
		}
	}
	if s := got.String(); s != "" && !strings.Contains(s, "408") && !strings.Contains(s, "400") {
		t.Fatalf("unexpected answer to a slow client: %q", s)
	}
}
