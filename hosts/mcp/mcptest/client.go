// Package mcptest drives an MCP stdio server process from tests: it speaks
// newline-delimited JSON-RPC 2.0, performs the initialize handshake and
// decodes tool results. It is deliberately independent of the SDK the
// server is built on, so tests observe only the wire.
package mcptest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// Client is one running server process.
type Client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	stderr *lockedBuffer
	nextID int
	// notes are the server's notifications read so far and not yet taken.
	notes []map[string]any
	// Initialize is the server's initialize result.
	Initialize map[string]any
}

// Result is a decoded tools/call outcome.
type Result struct {
	// Structured is structuredContent (nil for input rejections).
	Structured map[string]any
	// Text is the first text content block.
	Text    string
	IsError bool
	// RPCError is set when the server answered with a JSON-RPC error.
	RPCError *RPCError
	// Raw is the whole JSON-RPC response line.
	Raw []byte
}

// RPCError is a JSON-RPC error object.
type RPCError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// Code returns the refusal code of an error result, or "" on success.
func (r Result) Code() string {
	if r.Structured == nil {
		return ""
	}
	code, _ := r.Structured["error"].(string)
	return code
}

// Start launches argv with env, completes the MCP handshake and returns
// the client. The process inherits nothing but env.
func Start(argv []string, env []string) (*Client, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	c := &Client{cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20), stderr: &lockedBuffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	resp, err := c.request("initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "mcptest", "version": "1"},
	})
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("initialize: %w (stderr: %s)", err, c.Stderr())
	}
	c.Initialize, _ = resp["result"].(map[string]any)
	if err := c.send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *Client) send(msg map[string]any) error {
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = c.stdin.Write(append(b, '\n'))
	return err
}

// request sends one request and reads lines until its response arrives.
func (c *Client) request(method string, params any) (map[string]any, error) {
	c.nextID++
	id := c.nextID
	if err := c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		return nil, err
	}
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("read response: %w", err)
		}
		var msg map[string]any
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("stdout carried a non-JSON line %q: %w", line, err)
		}
		if got, ok := msg["id"].(float64); ok && int(got) == id {
			msg["_raw"] = string(line)
			return msg, nil
		}
		c.keepNote(msg, line)
	}
}

// ListTools returns the tools/list result's tools.
func (c *Client) ListTools() ([]map[string]any, error) {
	resp, err := c.request("tools/list", map[string]any{})
	if err != nil {
		return nil, err
	}
	result, _ := resp["result"].(map[string]any)
	items, _ := result["tools"].([]any)
	out := make([]map[string]any, 0, len(items))
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out, nil
}

// Call invokes a tool.
func (c *Client) Call(name string, args map[string]any) (Result, error) {
	return c.call(name, args)
}

// CallRaw invokes a tool with arguments given as raw JSON text, for inputs
// a Go value cannot hold (such as unpaired surrogate escapes).
func (c *Client) CallRaw(name string, args json.RawMessage) (Result, error) {
	return c.call(name, args)
}

func (c *Client) call(name string, args any) (Result, error) {
	resp, err := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return Result{}, err
	}
	return decodeResult(resp), nil
}

// decodeResult decodes one tools/call response message.
func decodeResult(resp map[string]any) Result {
	r := Result{Raw: []byte(resp["_raw"].(string))}
	if e, ok := resp["error"].(map[string]any); ok {
		code, _ := e["code"].(float64)
		msg, _ := e["message"].(string)
		r.RPCError = &RPCError{Code: int(code), Message: msg}
		return r
	}
	result, _ := resp["result"].(map[string]any)
	r.IsError, _ = result["isError"].(bool)
	r.Structured, _ = result["structuredContent"].(map[string]any)
	if content, ok := result["content"].([]any); ok && len(content) > 0 {
		if block, ok := content[0].(map[string]any); ok {
			r.Text, _ = block["text"].(string)
		}
	}
	return r
}

// Stderr returns what the process wrote to stderr so far.
func (c *Client) Stderr() string { return c.stderr.String() }

// Close ends stdin, waits up to five seconds for the process to exit (then
// kills it) and returns its exit code.
func (c *Client) Close() int {
	c.stdin.Close()
	done := make(chan struct{})
	go func() { c.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		c.cmd.Process.Kill()
		<-done
	}
	return c.cmd.ProcessState.ExitCode()
}

// Kill ends the process at once, as a crash would.
func (c *Client) Kill() {
	c.cmd.Process.Kill()
	c.cmd.Wait()
}

// Pid is the server's process id.
func (c *Client) Pid() int { return c.cmd.Process.Pid }

// CallMany sends every call before reading any answer, so the server holds
// them all at once, and returns the results in the order of calls.
func (c *Client) CallMany(name string, calls []map[string]any) ([]Result, error) {
	ids := make(map[int]int, len(calls))
	for i, args := range calls {
		c.nextID++
		ids[c.nextID] = i
		if err := c.send(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": "tools/call",
			"params": map[string]any{"name": name, "arguments": args}}); err != nil {
			return nil, err
		}
	}
	out := make([]Result, len(calls))
	for left := len(calls); left > 0; {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("read response: %w", err)
		}
		var msg map[string]any
		if err := json.Unmarshal(line, &msg); err != nil {
			return nil, fmt.Errorf("stdout carried a non-JSON line %q: %w", line, err)
		}
		id, ok := msg["id"].(float64)
		i, mine := ids[int(id)]
		if !ok || !mine {
			c.keepNote(msg, line)
			continue
		}
		msg["_raw"] = string(line)
		out[i] = decodeResult(msg)
		left--
	}
	return out, nil
}
