package httpserve

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/hosts/mcp"
)

// transportRig is a Server without tokens behind httptest.
type transportRig struct {
	t   *testing.T
	url string
}

func newTransportRig(t *testing.T) *transportRig {
	t.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	srv, err := New(Config{Store: st, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return &transportRig{t: t, url: ts.URL + "/mcp"}
}

// send makes one request to /mcp with the headers a client sends, headers
// overriding them ("" removes one), and returns the status, the session
// header and the body.
func (r *transportRig) send(method, body string, headers map[string]string) (int, string, string) {
	r.t.Helper()
	req, err := http.NewRequest(method, r.url, strings.NewReader(body))
	if err != nil {
		r.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		r.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		r.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get(sessionHeader), string(data)
}

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

func (r *transportRig) session() string {
	r.t.Helper()
	status, sid, body := r.send(http.MethodPost, initializeBody, nil)
	if status != http.StatusOK || sid == "" {
		r.t.Fatalf("initialize: %d %q %s", status, sid, body)
	}
	return sid
}

// TestTheHTTPTransportAnswersItsEdges: each way a request to /mcp can be
// wrong at the HTTP level is answered with its status and reason, and a
// notification, a DELETE and a request after it are answered as the
// transport specifies.
func TestTheHTTPTransportAnswersItsEdges(t *testing.T) {
	r := newTransportRig(t)
	sid := r.session()
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	for _, c := range []struct {
		name    string
		method  string
		body    string
		headers map[string]string
		status  int
		reason  string
	}{
		{"a body that is not JSON", http.MethodPost, list, map[string]string{"Content-Type": "text/plain", sessionHeader: sid},
			http.StatusUnsupportedMediaType, "Content-Type must be 'application/json'"},
		{"an Accept without event streams", http.MethodPost, list, map[string]string{"Accept": "application/json", sessionHeader: sid},
			http.StatusBadRequest, "Accept must contain both 'application/json' and 'text/event-stream'"},
		{"a protocol version this server does not speak", http.MethodPost, list, map[string]string{protocolHeader: "1999-01-01", sessionHeader: sid},
			http.StatusBadRequest, "Bad Request: Unsupported protocol version"},
		{"a session this server never issued", http.MethodPost, list, map[string]string{sessionHeader: "nope"},
			http.StatusNotFound, "session not found"},
		{"a GET without a session", http.MethodGet, "", map[string]string{"Accept": "text/event-stream"},
			http.StatusBadRequest, "Bad Request: GET requires an Mcp-Session-Id header"},
		{"a GET that does not accept a stream", http.MethodGet, "", map[string]string{"Accept": "application/json", sessionHeader: sid},
			http.StatusBadRequest, "Accept must contain 'text/event-stream' for GET requests"},
		{"a GET that asks for a replay", http.MethodGet, "", map[string]string{"Accept": "text/event-stream", sessionHeader: sid, "Last-Event-ID": "x"},
			http.StatusBadRequest, "stream replay unsupported"},
		{"a DELETE without a session", http.MethodDelete, "", nil,
			http.StatusBadRequest, "Bad Request: DELETE requires an Mcp-Session-Id header"},
		{"a method the transport has not", http.MethodPut, list, map[string]string{sessionHeader: sid},
			http.StatusMethodNotAllowed, "Method Not Allowed"},
		{"a notification", http.MethodPost, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, map[string]string{sessionHeader: sid},
			http.StatusAccepted, ""},
		{"a DELETE", http.MethodDelete, "", map[string]string{sessionHeader: sid}, http.StatusNoContent, ""},
		{"a request after the DELETE", http.MethodPost, list, map[string]string{sessionHeader: sid},
			http.StatusNotFound, "session not found"},
	} {
		status, _, body := r.send(c.method, c.body, c.headers)
		if status != c.status || !strings.HasPrefix(body, c.reason) || (c.reason == "" && body != "") {
			t.Errorf("%s: answered %d %q, want %d %q", c.name, status, body, c.status, c.reason)
		}
	}
}

// TestHTTPListsTheToolsAsStdioDoes: tools/list over HTTP is the one
// listing, the catalogue's tools in the catalogue's order, and a refused
// initialize opens no session.
func TestHTTPListsTheToolsAsStdioDoes(t *testing.T) {
	r := newTransportRig(t)
	sid := r.session()
	status, _, body := r.send(http.MethodPost, `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"x"}}`,
		map[string]string{sessionHeader: sid})
	if status != http.StatusOK {
		t.Fatalf("tools/list: %d %s", status, body)
	}
	var msg struct {
		Result map[string]json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(body), &msg); err != nil || len(msg.Result) != 1 {
		t.Fatalf("not a listing alone: %.300s", body)
	}
	var tools []struct{ Name string }
	if err := json.Unmarshal(msg.Result["tools"], &tools); err != nil {
		t.Fatal(err)
	}
	all := mcp.Tools()
	if len(tools) != len(all) {
		t.Fatalf("%d tools listed, want %d", len(tools), len(all))
	}
	for i, tool := range tools {
		if tool.Name != all[i].Name {
			t.Fatalf("tool %d is %s, want %s", i, tool.Name, all[i].Name)
		}
	}
	bad := `{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":7,"capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	status, refusedSID, body := r.send(http.MethodPost, bad, nil)
	want := `{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Invalid initialize request: protocolVersion must be a string"}}`
	if status != http.StatusOK || refusedSID != "" || body != want {
		t.Fatalf("refused initialize: %d %q %s", status, refusedSID, body)
	}
}
