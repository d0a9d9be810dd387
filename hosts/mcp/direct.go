package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/pprof"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Tool calls served beside the SDK.
//
// On the way to a tool handler the SDK decodes a call's params twice more
// (each decode allocating a 32 KB buffer), runs its middleware, and on the
// way back marshals the result and then compacts every byte of it again
// through encoding/json's scanner. For a stdio server that work was a
// third of a large answer's CPU and a good part of the collector's. A
// direct connection takes each tools/call it can serve exactly as the SDK
// would and runs it on the Process itself: the same handler (Process.call,
// serialised by the same turn), the same result bytes (encodeResult, or
// the SDK's encoding for anything it leaves alone), written through the
// same connection, so the transport under it still tracks and answers
// every request. What it cannot serve exactly as the SDK would goes to the
// SDK untouched:
//   - tools that wait (collab_wait and the like), which the SDK's
//     cancellation and progress handling serve as they are;
//   - unknown and hidden tools (the catalog answers them);
//   - params with a key other than name, arguments and _meta, or a _meta
//     that selects the SDK's per-request protocol (SEP-2575).
//
// The calls it serves run one at a time, in the order they arrived (the
// Process serialises them anyway): a client that sends a session start and
// then, without waiting, calls that need the session finds them run in
// that order, which the SDK's dispatch does not promise (its handlers race
// for the Process's turn).
//
// A tools/list for the first page is answered here too, from the listing
// the process rendered once (the SDK would encode it again for every
// request); one with a cursor or anything else the SDK reads goes to it.
// The listing starts rendering when the connection opens, beside the
// initialize handshake.
//
// A notifications/cancelled for a call served here cancels its context,
// as the SDK cancels a handler's; the SDK is told too, and finds nothing
// of its own to cancel. The answer the call still produces is handed to
// the transport, which drops it: a cancelled request gets no answer.

// metaProtocolPrefix starts every _meta key the SDK reads in a call.
const metaProtocolPrefix = "io.modelcontextprotocol/"

// ServeCallsDirectly returns t with each tools/call it can serve exactly
// as the SDK would answered by p directly (see above); everything else
// reaches the SDK as before. Use it for the stdio server, around the
// transport passed to its server's Connect.
func (p *Process) ServeCallsDirectly(t sdk.Transport) sdk.Transport {
	return &directTransport{inner: t, p: p}
}

type directTransport struct {
	inner sdk.Transport
	p     *Process
}

func (t *directTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	tools := t.p.profileTools()
	d := &directConn{Connection: conn, p: t.p, tools: map[string]Tool{}, inflight: map[jsonrpc.ID]context.CancelFunc{}}
	for _, tool := range tools {
		if !tool.Waits {
			d.tools[tool.Name] = tool
		}
	}
	d.ctx, d.stop = context.WithCancel(context.WithoutCancel(ctx))
	d.arrived = make(chan struct{}, 1)
	go d.work()
	go t.p.listing()
	return d, nil
}

// directConn is a connection whose tools/call requests it serves itself
// when it can.
type directConn struct {
	sdk.Connection
	p     *Process
	tools map[string]Tool // the profile's tools that do not wait

	// ctx is the calls' context; it ends once the connection is closed.
	ctx  context.Context
	stop context.CancelFunc
	// wg counts the calls taken and not yet answered.
	wg sync.WaitGroup
	// arrived wakes the worker when a call is queued.
	arrived chan struct{}

	mu       sync.Mutex
	queue    []directCall
	inflight map[jsonrpc.ID]context.CancelFunc
}

// directCall is one call taken, waiting for its turn or running.
type directCall struct {
	id   jsonrpc.ID
	tool Tool
	args json.RawMessage
	ctx  context.Context
}

// Read returns the next message the SDK is to handle, serving on the way
// every tools/call this connection takes.
func (d *directConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := d.Connection.Read(ctx)
		if err != nil {
			return msg, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			return msg, nil
		}
		switch {
		case req.Method == "notifications/cancelled" && !req.IsCall():
			d.cancelCall(req.Params)
		case req.Method == "tools/call" && req.IsCall():
			if tool, args, ok := d.take(req.Params); ok {
				d.serve(req.ID, tool, args)
				continue
			}
		case req.Method == "tools/list" && req.IsCall():
			if l := d.p.listing(); l.encoded != nil && firstPage(req.Params) {
				d.answer(req.ID, l.encoded)
				continue
			}
		}
		return msg, nil
	}
}

// take returns the tool and arguments of a call this connection serves.
func (d *directConn) take(raw json.RawMessage) (Tool, json.RawMessage, bool) {
	var params map[string]json.RawMessage
	if json.Unmarshal(raw, &params) != nil {
		return Tool{}, nil, false
	}
	for key := range params {
		if key != "name" && key != "arguments" && key != "_meta" {
			return Tool{}, nil, false
		}
	}
	if meta, ok := params["_meta"]; ok && !plainMeta(meta) {
		return Tool{}, nil, false
	}
	var name string
	if json.Unmarshal(params["name"], &name) != nil {
		return Tool{}, nil, false
	}
	tool, ok := d.tools[name]
	if !ok {
		return Tool{}, nil, false
	}
	return tool, params["arguments"], true
}

// plainMeta reports whether a call's _meta is an object (or null) that
// the SDK reads nothing from.
func plainMeta(raw json.RawMessage) bool {
	var meta map[string]json.RawMessage
	if json.Unmarshal(raw, &meta) != nil {
		return false
	}
	for key := range meta {
		if strings.HasPrefix(key, metaProtocolPrefix) {
			return false
		}
	}
	return true
}

// firstPage reports whether tools/list params ask for the first page and
// nothing the SDK would read: absent, null, or an object holding at most
// an empty cursor and a plain _meta.
func firstPage(raw json.RawMessage) bool {
	if len(raw) == 0 || string(raw) == "null" {
		return true
	}
	var params map[string]json.RawMessage
	if json.Unmarshal(raw, &params) != nil || params == nil {
		return false
	}
	for key, v := range params {
		switch key {
		case "cursor":
			var cursor string
			if json.Unmarshal(v, &cursor) != nil || cursor != "" {
				return false
			}
		case "_meta":
			if !plainMeta(v) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// answer writes a result rendered beforehand, on a goroutine of its own as
// the SDK answers each request, so that a client that does not read its
// answers cannot stop this connection reading requests.
func (d *directConn) answer(id jsonrpc.ID, result json.RawMessage) {
	d.wg.Add(1)
	go func() {
		defer d.wg.Done()
		_ = d.Connection.Write(d.ctx, &jsonrpc.Response{ID: id, Result: result})
	}()
}

// serve queues one call for the worker.
func (d *directConn) serve(id jsonrpc.ID, tool Tool, args json.RawMessage) {
	ctx, cancel := context.WithCancel(d.ctx)
	d.wg.Add(1)
	d.mu.Lock()
	d.inflight[id] = cancel
	d.queue = append(d.queue, directCall{id: id, tool: tool, args: args, ctx: ctx})
	d.mu.Unlock()
	select {
	case d.arrived <- struct{}{}:
	default:
	}
}

// work runs the queued calls one at a time, in order, until the
// connection closes.
func (d *directConn) work() {
	for {
		select {
		case <-d.arrived:
		case <-d.ctx.Done():
			return
		}
		for {
			d.mu.Lock()
			if len(d.queue) == 0 {
				d.mu.Unlock()
				break
			}
			c := d.queue[0]
			d.queue = d.queue[1:]
			d.mu.Unlock()
			d.run(c)
		}
	}
}

// run serves one call and writes its answer.
func (d *directConn) run(c directCall) {
	defer d.wg.Done()
	// The same label the catalog's handlers set, so profiles read the same
	// either way (go tool pprof -tagfocus tool=NAME).
	ctx := pprof.WithLabels(c.ctx, pprof.Labels("tool", c.tool.Name))
	pprof.SetGoroutineLabels(ctx)
	defer pprof.SetGoroutineLabels(d.ctx)
	res, err := d.p.call(ctx, c.tool, c.args)
	resp := callResponse(c.id, res, err)
	d.mu.Lock()
	cancel := d.inflight[c.id]
	delete(d.inflight, c.id)
	d.mu.Unlock()
	cancel()
	// The answer is handed on even when the call was cancelled, so the
	// transport settles the request (it writes nothing for a cancelled
	// one); a write that fails means the connection broke, which its reader
	// reports.
	_ = d.Connection.Write(d.ctx, resp)
}

// callResponse is the JSON-RPC response the SDK would send for a handler
// that returned res and err.
func callResponse(id jsonrpc.ID, res *sdk.CallToolResult, err error) *jsonrpc.Response {
	if err != nil {
		return &jsonrpc.Response{ID: id, Error: err}
	}
	if wire, ok := encodeResult(res); ok {
		return &jsonrpc.Response{ID: id, Result: wire}
	}
	b, err := encodeLikeSDK(res)
	if err != nil {
		return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("encode tool result: %v", err)}}
	}
	return &jsonrpc.Response{ID: id, Result: b}
}

// cancelCall cancels the call a notifications/cancelled names, if it is
// one of this connection's.
func (d *directConn) cancelCall(raw json.RawMessage) {
	var params struct {
		RequestID any `json:"requestId"`
	}
	if json.Unmarshal(raw, &params) != nil {
		return
	}
	id, err := jsonrpc.MakeID(params.RequestID)
	if err != nil {
		return
	}
	d.mu.Lock()
	cancel := d.inflight[id]
	d.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// Close waits for the calls in flight to be answered, as the SDK waits
// for its own, and closes the connection under them.
func (d *directConn) Close() error {
	d.wg.Wait()
	d.stop()
	return d.Connection.Close()
}
