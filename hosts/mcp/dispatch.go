package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/pprof"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServerName is the MCP implementation name every host sees.
const ServerName = "agenttool-collab"

// Method names this server reads.
const (
	methodInitialize  = "initialize"
	methodPing        = "ping"
	methodToolsList   = "tools/list"
	methodToolsCall   = "tools/call"
	methodInitialized = "notifications/initialized"
)

// Dispatcher is the one place an MCP request of a client of a Process is
// answered, whatever carried it (the stdio loop, an HTTP POST). It
// serves exactly these methods, and every other request is -32601, since
// no capability for them is advertised:
//   - initialize, answered with the version ProtocolVersions negotiates,
//     before or after any other request and as often as it is asked;
//     params of the wrong shape are -32603, as in the reference;
//   - ping and tools/list, whose params are ignored (a cursor included:
//     every tool is on the one page), the listing in the toolset's order;
//   - tools/call, whose params must be an object with a string name and,
//     if present, object arguments (else -32602); a tool the profile does
//     not serve is -32602 "Tool <name> not found", as an unknown one.
//
// It is safe for concurrent use; calls are serialised by the Process's
// turn, as every call is.
type Dispatcher struct {
	p       *Process
	version string
	tools   map[string]*Tool
}

// Dispatcher returns the dispatcher of p, reporting version as the
// server's.
func (p *Process) Dispatcher(version string) *Dispatcher {
	ts := p.toolset()
	return &Dispatcher{p: p, version: version, tools: ts.byName}
}

// Answer returns the response to one request that needs an answer.
func (d *Dispatcher) Answer(ctx context.Context, req *jsonrpc.Request) *jsonrpc.Response {
	if req.Method != methodInitialize && req.Method != methodPing {
		d.p.clientReady() // a client that skips notifications/initialized
	}
	result, err := d.answer(ctx, req)
	if err != nil {
		return &jsonrpc.Response{ID: req.ID, Error: err}
	}
	return &jsonrpc.Response{ID: req.ID, Result: result}
}

func (d *Dispatcher) answer(ctx context.Context, req *jsonrpc.Request) (json.RawMessage, *jsonrpc.Error) {
	switch req.Method {
	case methodInitialize:
		return d.initialize(ctx, req.Params)
	case methodPing:
		return json.RawMessage(`{}`), nil
	case methodToolsList:
		return d.list()
	case methodToolsCall:
		return d.call(ctx, req.Params)
	}
	return nil, &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}
}

// Waits reports whether req is a tools/call of a tool that waits (see
// Tool.Waits): such a call runs beside the others, not in their order.
func (d *Dispatcher) Waits(req *jsonrpc.Request) bool {
	if req.Method != methodToolsCall {
		return false
	}
	c, problem := checkCallParams(req.Params)
	t := d.tools[c.Name]
	return problem == "" && t != nil && t.Waits
}

// Notice takes a notification the client sent; notifications/initialized
// tells the channel the client is ready. Every other one is ignored here
// (a transport acts on notifications/cancelled itself).
func (d *Dispatcher) Notice(req *jsonrpc.Request) {
	if req.Method == methodInitialized {
		d.p.clientReady()
	}
}

// list answers tools/list.
func (d *Dispatcher) list() (json.RawMessage, *jsonrpc.Error) {
	raw, err := d.p.toolset().listing()
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("encode tools/list result: %v", err)}
	}
	return raw, nil
}

// initialize answers an initialize request.
func (d *Dispatcher) initialize(ctx context.Context, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	version, refusal := checkInitialize(params)
	if refusal != nil {
		return nil, refusal
	}
	d.p.noteClient(ctx, params)
	raw, err := json.Marshal(&sdk.InitializeResult{
		Capabilities:    d.p.capabilities(),
		Instructions:    Instructions,
		ProtocolVersion: version,
		ServerInfo:      &sdk.Implementation{Name: ServerName, Version: d.version},
	})
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("encode initialize result: %v", err)}
	}
	return raw, nil
}

// call runs one tools/call and encodes its result.
func (d *Dispatcher) call(ctx context.Context, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
	c, problem := checkCallParams(params)
	if problem != "" {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid tools/call request: " + problem}
	}
	t := d.tools[c.Name]
	if t == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Tool %s not found", c.Name)}
	}
	// Labelled so that a CPU profile can be read per tool
	// (go tool pprof -tagfocus tool=collab_report_append).
	unlabelled := ctx
	ctx = pprof.WithLabels(ctx, pprof.Labels("tool", t.Name))
	pprof.SetGoroutineLabels(ctx)
	defer pprof.SetGoroutineLabels(unlabelled)
	res, err := d.p.call(ctx, *t, c.Arguments)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
	}
	raw, err := encodeResult(res)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("encode tool result: %v", err)}
	}
	return raw, nil
}
