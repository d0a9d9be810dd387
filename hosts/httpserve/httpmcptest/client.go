// Package httpmcptest is a small MCP Streamable HTTP client for tests. It
// speaks plain JSON-RPC over POST, independent of the SDK the server uses,
// so tests observe only the wire: status codes, headers and bodies.
package httpmcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// ProtocolVersion is the MCP protocol version the client asks for.
const ProtocolVersion = "2025-06-18"

// Client is one logical MCP client: one MCP session at a time.
type Client struct {
	// URL is the server's MCP endpoint (http://host:port/mcp).
	URL string
	// Token, when set, is sent as a bearer token.
	Token string
	// Instance, when set, is sent as X-Collab-Client-Instance.
	Instance string
	// HTTP is the client used (http.DefaultClient when nil).
	HTTP *http.Client

	mu        sync.Mutex
	sessionID string
	nextID    int
}

// StatusError is an HTTP answer other than 200/202.
type StatusError struct {
	Status int
	Body   string
	// Header is the answer's header (Retry-After, WWW-Authenticate, ...).
	Header http.Header
}

func (e *StatusError) Error() string {
	return fmt.Sprintf("HTTP %d: %s", e.Status, strings.TrimSpace(e.Body))
}

// SessionID is the current MCP session id ("" before Initialize).
func (c *Client) SessionID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessionID
}

// Initialize opens a new MCP session (forgetting any previous one) and
// sends notifications/initialized.
func (c *Client) Initialize(ctx context.Context) error {
	c.mu.Lock()
	c.sessionID = ""
	c.mu.Unlock()
	params := map[string]any{"protocolVersion": ProtocolVersion, "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "httpmcptest", "version": "1"}}
	if _, err := c.rpc(ctx, "initialize", params, true); err != nil {
		return err
	}
	_, err := c.rpc(ctx, "notifications/initialized", nil, false)
	return err
}

// Call runs one tool and decodes its result.
func (c *Client) Call(ctx context.Context, tool string, args map[string]any) (mcptest.Result, error) {
	raw, err := c.rpc(ctx, "tools/call", map[string]any{"name": tool, "arguments": args}, true)
	if err != nil {
		return mcptest.Result{}, err
	}
	return decodeResult(raw)
}

// Post sends body as-is to the endpoint with the client's headers and
// returns the status and body; for malformed-input tests.
func (c *Client) Post(ctx context.Context, body io.Reader, contentLength int64) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, body)
	if err != nil {
		return 0, "", err
	}
	req.ContentLength = contentLength
	c.headers(req)
	resp, err := c.http().Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, string(b), nil
}

// Delete ends the current MCP session (HTTP DELETE) and returns the
// status the server answered.
func (c *Client) Delete(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, c.URL, nil)
	if err != nil {
		return 0, err
	}
	c.headers(req)
	resp, err := c.http().Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func (c *Client) http() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return http.DefaultClient
}

func (c *Client) headers(req *http.Request) {
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", ProtocolVersion)
	if c.Token != "" {
		req.Header.Set("Authorization", "Bearer "+c.Token)
	}
	if c.Instance != "" {
		req.Header.Set("X-Collab-Client-Instance", c.Instance)
	}
	if id := c.SessionID(); id != "" {
		req.Header.Set("Mcp-Session-Id", id)
	}
}

// rpc sends one request (or notification) and returns the raw response
// message, reading either a JSON body or an SSE stream.
func (c *Client) rpc(ctx context.Context, method string, params any, call bool) (json.RawMessage, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if params != nil {
		msg["params"] = params
	}
	if call {
		c.mu.Lock()
		c.nextID++
		msg["id"] = c.nextID
		c.mu.Unlock()
	}
	body, _ := json.Marshal(msg)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	c.headers(req)
	resp, err := c.http().Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK && resp.StatusCode != http.StatusAccepted {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return nil, &StatusError{Status: resp.StatusCode, Body: string(b), Header: resp.Header}
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		c.mu.Lock()
		c.sessionID = id
		c.mu.Unlock()
	}
	if !call {
		io.Copy(io.Discard, resp.Body)
		return nil, nil
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		return readSSE(resp.Body)
	}
	return io.ReadAll(resp.Body)
}

// readSSE returns the first data event that is a JSON-RPC response.
func readSSE(r io.Reader) (json.RawMessage, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal([]byte(data), &probe) == nil && len(probe.ID) > 0 {
			return json.RawMessage(data), nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}

func decodeResult(raw json.RawMessage) (mcptest.Result, error) {
	var resp struct {
		Result *struct {
			Structured map[string]any `json:"structuredContent"`
			Content    []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
		Error *mcptest.RPCError `json:"error"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return mcptest.Result{}, fmt.Errorf("decode response %q: %w", raw, err)
	}
	r := mcptest.Result{Raw: raw, RPCError: resp.Error}
	if resp.Result != nil {
		r.Structured, r.IsError = resp.Result.Structured, resp.Result.IsError
		if len(resp.Result.Content) > 0 {
			r.Text = resp.Result.Content[0].Text
		}
	}
	return r, nil
}
