package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// ProtocolVersions are the MCP protocol versions this server speaks, newest
// first, as the reference does: a client's version in this list is echoed,
// any other is answered with the first.
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"}

// StdioTransport serves MCP over newline-delimited JSON-RPC on in and
// out, with the protocol's edges decided as the reference decides them
// (see gate).
func StdioTransport(in io.Reader, out io.Writer) sdk.Transport {
	return &gateTransport{inner: &stdio.Transport{In: in, Out: out}, order: NewListingOrder()}
}

// listOrder is the order in which the reference lists its tools; a host
// may show them in list order. Tools of this server's own (not in the
// list) follow in Tools() order.
var listOrder = []string{
	"collab_session_join", "collab_session_list", "collab_session_heartbeat", "collab_session_leave",
	"collab_session_start", "collab_session_end", "collab_workspace_open", "collab_workspace_status",
	"collab_next", "collab_cursor_ack", "collab_cursor_reset", "collab_task_create", "collab_task_list",
	"collab_task_get", "collab_task_claim", "collab_task_recover", "collab_task_renew", "collab_task_progress",
	"collab_task_release", "collab_task_block", "collab_task_unblock", "collab_artifact_attach",
	"collab_task_complete", "collab_task_review", "collab_report_append", "collab_report_list",
	"collab_decision_record", "collab_handoff_offer", "collab_handoff_respond", "collab_events_since",
	"collab_journal_verify", "collab_anchor_status",
}

// toolOrder ranks every served tool for tools/list.
func toolOrder() map[string]int {
	order := map[string]int{}
	for i, name := range listOrder {
		order[name] = i
	}
	for _, t := range Tools() {
		if _, ok := order[t.Name]; !ok {
			order[t.Name] = len(order)
		}
	}
	return order
}

type gateTransport struct {
	inner sdk.Transport
	order *ListingOrder
}

func (t *gateTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	inner, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &gate{inner: inner, order: t.order, initDone: make(chan struct{}), lists: map[jsonrpc.ID]bool{}}, nil
}

// gate stands between the transport and the SDK's server session and
// decides what the SDK cannot be configured to decide as the reference
// does:
//   - The session is initialised by the gate itself, with a request of
//     its own before any client message, so requests sent before
//     initialize are served. Every client initialize is answered by the
//     gate from the SDK's own answer, with the protocol version
//     negotiated per request; a second initialize is answered like the
//     first. Invalid initialize params are -32603, as in the reference.
//   - Only initialize, ping, tools/list and tools/call are served;
//     every other request (resources/*, prompts/*, logging/setLevel,
//     completion/complete, ...) is -32601, since no capability for them
//     is advertised.
//   - ping and tools/list ignore their params (so an unknown cursor is
//     ignored and ping with params null or [] is answered); tools/call
//     needs an object with a string name and, if present, object
//     arguments, else -32602.
//   - tools/list results carry only "tools" (no ttlMs or cacheScope), in
//     the reference's order (listOrder).
type gate struct {
	inner sdk.Connection
	order *ListingOrder

	injected bool // Read has handed the SDK the gate's initialize
	initDone chan struct{}

	mu       sync.Mutex
	template *sdk.InitializeResult // the SDK's answer to the gate's initialize
	lists    map[jsonrpc.ID]bool   // tools/list requests awaiting their result
}

// initID is the id of the gate's own initialize request; its answer is
// never written out.
var initID, _ = jsonrpc.MakeID("agenttool-collab/initialize")

func (g *gate) Read(ctx context.Context) (jsonrpc.Message, error) {
	if !g.injected {
		g.injected = true
		params, _ := json.Marshal(map[string]any{
			"protocolVersion": ProtocolVersions[0], "capabilities": map[string]any{},
			"clientInfo": map[string]any{"name": ServerName, "version": "gate"},
		})
		return &jsonrpc.Request{ID: initID, Method: "initialize", Params: params}, nil
	}
	select {
	case <-g.initDone:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	for {
		msg, err := g.inner.Read(ctx)
		if err != nil {
			return nil, err
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok || !req.IsCall() {
			return msg, nil
		}
		answer := g.route(req)
		if answer == nil {
			return req, nil
		}
		if err := g.inner.Write(ctx, answer); err != nil {
			return nil, err
		}
	}
}

// route prepares req for the SDK and returns nil, or returns the answer
// the gate gives itself.
func (g *gate) route(req *jsonrpc.Request) *jsonrpc.Response {
	if req.Method == "initialize" {
		return g.initialize(req)
	}
	answer := Screen(req)
	if answer == nil && req.Method == "tools/list" {
		g.mu.Lock()
		g.lists[req.ID] = true
		g.mu.Unlock()
	}
	return answer
}

// Screen prepares a client's request other than initialize for the SDK,
// as every transport of this server does, and returns nil; or it returns
// the answer the server gives without the SDK: -32601 for a method no
// advertised capability covers, -32602 for tools/call params of the wrong
// shape. ping and tools/list have their params dropped (they take none
// this server reads).
func Screen(req *jsonrpc.Request) *jsonrpc.Response {
	switch req.Method {
	case "ping", "tools/list":
		req.Params = nil
	case "tools/call":
		if msg := checkCallParams(req.Params); msg != "" {
			return &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "Invalid tools/call request: " + msg}}
		}
	default:
		return &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "Method not found"}}
	}
	return nil
}

// checkCallParams says what is wrong with tools/call params, or "".
func checkCallParams(raw json.RawMessage) string {
	var params map[string]json.RawMessage
	if jsonKind(raw) != '{' || json.Unmarshal(raw, &params) != nil {
		return "params must be an object"
	}
	if jsonKind(params["name"]) != '"' {
		return "name must be a string"
	}
	if args, ok := params["arguments"]; ok && jsonKind(args) != '{' {
		return "arguments must be an object"
	}
	return ""
}

// jsonKind is the first byte of a JSON value ('{', '[', '"', 'n', ...), or
// 0 for none.
func jsonKind(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}

// initialize answers a client's initialize from the SDK's answer to the
// gate's own, with the protocol version negotiated for this request.
func (g *gate) initialize(req *jsonrpc.Request) *jsonrpc.Response {
	version, refusal := CheckInitialize(req)
	if refusal != nil {
		return refusal
	}
	g.mu.Lock()
	template := g.template
	g.mu.Unlock()
	if template == nil {
		return initializeRefusal(req.ID, "the server could not initialise its session")
	}
	result := *template
	result.ProtocolVersion = version
	raw, err := json.Marshal(&result)
	if err != nil {
		return &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("encode initialize result: %v", err)}}
	}
	return &jsonrpc.Response{ID: req.ID, Result: raw}
}

// CheckInitialize returns the protocol version this server answers an
// initialize request with, or the answer refusing the request when its
// params do not have the shapes the MCP schema fixes (-32603, as the
// reference answers). Every transport negotiates through it.
func CheckInitialize(req *jsonrpc.Request) (version string, refusal *jsonrpc.Response) {
	requested, problem := checkInitializeParams(req.Params)
	if problem != "" {
		return "", initializeRefusal(req.ID, problem)
	}
	return NegotiateVersion(requested), nil
}

func initializeRefusal(id jsonrpc.ID, problem string) *jsonrpc.Response {
	return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Invalid initialize request: " + problem}}
}

// NegotiateVersion returns the protocol version answered to a client that
// asks for requested: the same version when this server speaks it (see
// ProtocolVersions), else the newest.
func NegotiateVersion(requested string) string {
	for _, v := range ProtocolVersions {
		if v == requested {
			return v
		}
	}
	return ProtocolVersions[0]
}

// checkInitializeParams returns the requested protocol version, or what
// is wrong with the params: the shapes the MCP schema fixes for
// protocolVersion, capabilities and clientInfo.
func checkInitializeParams(raw json.RawMessage) (string, string) {
	var p struct {
		ProtocolVersion json.RawMessage            `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
		ClientInfo      map[string]json.RawMessage `json:"clientInfo"`
	}
	if jsonKind(raw) != '{' || json.Unmarshal(raw, &p) != nil {
		return "", "params must be an object with protocolVersion, capabilities and clientInfo"
	}
	var version string
	if jsonKind(p.ProtocolVersion) != '"' || json.Unmarshal(p.ProtocolVersion, &version) != nil {
		return "", "protocolVersion must be a string"
	}
	if p.Capabilities == nil {
		return "", "capabilities must be an object"
	}
	for _, name := range []string{"experimental", "roots", "sampling", "elicitation"} {
		if v, ok := p.Capabilities[name]; ok && jsonKind(v) != '{' {
			return "", "capabilities." + name + " must be an object"
		}
	}
	if p.ClientInfo == nil {
		return "", "clientInfo must be an object"
	}
	for _, name := range []string{"name", "version"} {
		if jsonKind(p.ClientInfo[name]) != '"' {
			return "", "clientInfo." + name + " must be a string"
		}
	}
	if v, ok := p.ClientInfo["title"]; ok && jsonKind(v) != '"' {
		return "", "clientInfo.title must be a string"
	}
	return version, ""
}

func (g *gate) Write(ctx context.Context, msg jsonrpc.Message) error {
	resp, ok := msg.(*jsonrpc.Response)
	if !ok {
		return g.inner.Write(ctx, msg)
	}
	select {
	case <-g.initDone:
	default:
		if resp.ID == initID {
			g.keepTemplate(resp)
			return nil
		}
	}
	g.mu.Lock()
	list := g.lists[resp.ID]
	delete(g.lists, resp.ID)
	g.mu.Unlock()
	if list && resp.Error == nil {
		if result, err := g.order.Apply(resp.Result); err == nil {
			fixed := *resp
			fixed.Result = result
			msg = &fixed
		}
	}
	return g.inner.Write(ctx, msg)
}

func (g *gate) keepTemplate(resp *jsonrpc.Response) {
	var result sdk.InitializeResult
	if resp.Error == nil && json.Unmarshal(resp.Result, &result) == nil {
		g.mu.Lock()
		g.template = &result
		g.mu.Unlock()
	}
	close(g.initDone)
}

// ListingOrder re-renders tools/list results as every transport of this
// server answers them: {"tools":[...]} alone, in the reference's order
// (listOrder). It is safe for concurrent use.
type ListingOrder struct {
	order map[string]int

	mu sync.Mutex
	// in and out are the last result ordered and its ordering: the
	// listing is the same for every request, and decoding its 40 KB again
	// took 1.3 ms of CPU per request.
	in, out json.RawMessage
}

// NewListingOrder returns the ordering of this build's tools.
func NewListingOrder() *ListingOrder { return &ListingOrder{order: toolOrder()} }

// Apply returns result re-rendered (see ListingOrder), from the last
// ordering when result is the listing it ordered.
func (o *ListingOrder) Apply(result json.RawMessage) (json.RawMessage, error) {
	o.mu.Lock()
	in, out := o.in, o.out
	o.mu.Unlock()
	if out != nil && bytes.Equal(in, result) {
		return out, nil
	}
	out, err := orderTools(result, o.order)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	o.in, o.out = bytes.Clone(result), out
	o.mu.Unlock()
	return out, nil
}

// orderTools re-renders a tools/list result as {"tools":[...]} alone, the
// tools in the given order (unknown names last, in the SDK's order). Each
// tool's bytes are kept as the SDK wrote them.
func orderTools(result json.RawMessage, order map[string]int) (json.RawMessage, error) {
	var list struct {
		Tools []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(result, &list); err != nil {
		return nil, err
	}
	rank := make([]int, len(list.Tools))
	for i, raw := range list.Tools {
		var t struct {
			Name string `json:"name"`
		}
		json.Unmarshal(raw, &t)
		r, ok := order[t.Name]
		if !ok {
			r = len(order) + i
		}
		rank[i] = r
	}
	idx := make([]int, len(list.Tools))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return rank[idx[a]] < rank[idx[b]] })
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i, j := range idx {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(list.Tools[j])
	}
	b.WriteString(`]}`)
	return b.Bytes(), nil
}

func (g *gate) Close() error      { return g.inner.Close() }
func (g *gate) SessionID() string { return g.inner.SessionID() }
