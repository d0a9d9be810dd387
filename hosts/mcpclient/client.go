// Package mcpclient speaks to a collab MCP server as any host would: over
// stdio to a child process, or over an in-process pipe to a server built in
// this process. It turns each tools/call into an Outcome holding either the
// structured result or the refusal code and message, so callers (the demo,
// a person's terminal) never parse JSON-RPC themselves.
package mcpclient

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Conn is one connected MCP client session.
type Conn struct {
	session *sdk.ClientSession
}

// Outcome is one tool call's result. Exactly one of Data (success) and Code
// (a refusal: isError with a stable code) is meaningful.
type Outcome struct {
	Tool    string         `json:"tool"`
	Data    map[string]any `json:"result,omitempty"`
	Code    string         `json:"error,omitempty"`
	Message string         `json:"message,omitempty"`
}

// Refused reports whether the server refused the call.
func (o Outcome) Refused() bool { return o.Code != "" }

// Start launches cmd as a stdio MCP server and completes the handshake.
// The caller must Close the connection, which ends the process.
func Start(ctx context.Context, cmd *exec.Cmd, clientName string) (*Conn, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: clientName, Version: "1"}, nil)
	session, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("start MCP server %s: %w", cmd.Path, err)
	}
	return &Conn{session: session}, nil
}

// Connect completes the handshake over an already connected transport,
// such as one half of sdk.NewInMemoryTransports.
func Connect(ctx context.Context, t sdk.Transport, clientName string) (*Conn, error) {
	client := sdk.NewClient(&sdk.Implementation{Name: clientName, Version: "1"}, nil)
	session, err := client.Connect(ctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("connect MCP client: %w", err)
	}
	return &Conn{session: session}, nil
}

// Call invokes tool with args. A refusal is an Outcome with Code set, not
// an error; an error means the transport or the server failed.
func (c *Conn) Call(ctx context.Context, tool string, args map[string]any) (Outcome, error) {
	res, err := c.session.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return Outcome{}, fmt.Errorf("call %s: %w", tool, err)
	}
	out := Outcome{Tool: tool}
	data, err := structured(res)
	if err != nil {
		return Outcome{}, fmt.Errorf("call %s: %w", tool, err)
	}
	if res.IsError {
		out.Code, _ = data["error"].(string)
		out.Message, _ = data["message"].(string)
		if out.Code == "" {
			out.Code = "invalid_input"
			if out.Message == "" {
				out.Message = textOf(res)
			}
		}
		out.Data = data
		return out, nil
	}
	out.Data = data
	return out, nil
}

// Close ends the session (and a child server process with it).
func (c *Conn) Close() error { return c.session.Close() }

func structured(res *sdk.CallToolResult) (map[string]any, error) {
	if res.StructuredContent == nil {
		return map[string]any{}, nil
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("structured content is not an object: %w", err)
	}
	return m, nil
}

func textOf(res *sdk.CallToolResult) string {
	for _, c := range res.Content {
		if t, ok := c.(*sdk.TextContent); ok {
			return t.Text
		}
	}
	return ""
}
