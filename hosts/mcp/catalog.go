package mcp

import (
	"context"
	"fmt"
	"runtime/pprof"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// catalog answers tools/list for one server in place of the SDK's tool
// registry, and registers each tool's handler with the SDK under a bare
// object schema. Registering a tool with its real input schema makes the
// SDK re-encode and re-decode that schema twice (about 40% of a stdio
// server's start, before it can answer initialize); the catalog instead
// renders the schemas on the first tools/list and keeps them. What a client
// sees is what the SDK's registry gave: the same listing, sorted by name,
// with the same cache hints, and calls answered by the SDK as before.
type catalog struct {
	p     *Process
	known map[string]bool // the toolset's, shared
	// encodeResults makes the middleware encode each tool result itself
	// (wire.go) rather than leave it to the SDK.
	encodeResults bool
}

// registeredSchema is the input schema the SDK holds for every tool: the
// SDK checks only that it is an object schema and never lists it (the
// catalog answers tools/list); arguments are validated by Process.call.
// It is the SDK's own schema type (module github.com/google/jsonschema-go,
// already part of the SDK), which the SDK checks without re-encoding.
var registeredSchema = &jsonschema.Schema{Type: "object"}

// newCatalog takes the tools of p's profile (every tool when the profile is
// invalid: serve refuses an invalid one before getting here) and registers
// their handlers with srv.
func newCatalog(p *Process, srv *sdk.Server) *catalog {
	ts := p.toolset()
	c := &catalog{p: p, known: ts.known}
	for i := range ts.tools {
		// A pointer into the shared toolset: a copied Tool in each of
		// the 32 closures cost every session about 14 KiB.
		t := &ts.tools[i]
		srv.AddTool(&sdk.Tool{Name: t.Name, InputSchema: registeredSchema}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			// The SDK runs each request, then encodes and writes its
			// reply, on a goroutine of its own: labelling it lets a CPU
			// profile be read per tool (go tool pprof -tagfocus
			// tool=collab_report_append).
			pprof.SetGoroutineLabels(pprof.WithLabels(ctx, pprof.Labels("tool", t.Name)))
			return p.call(ctx, *t, req.Params.Arguments)
		})
	}
	return c
}

// middleware answers tools/list (the first page; a cursor, which this
// server never hands out, goes to the SDK) and refuses a call to a tool
// this server does not have with JSON-RPC invalid params ("Tool <name> not
// found"), as it does a hidden tool, before the SDK's generic wording.
func (c *catalog) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch r := req.(type) {
		case *sdk.ListToolsRequest:
			if method == "tools/list" && (r.Params == nil || r.Params.Cursor == "") {
				return c.list(), nil
			}
		case *sdk.CallToolRequest:
			if method == "tools/call" && !c.known[r.Params.Name] {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Tool %s not found", r.Params.Name)}
			}
			if method == "tools/call" && c.encodeResults {
				return encodeCall(next(ctx, method, req))
			}
		}
		return next(ctx, method, req)
	}
}

// encodeCall hands the SDK a tool result that encodes itself (wire.go).
func encodeCall(res sdk.Result, err error) (sdk.Result, error) {
	if r, ok := res.(*sdk.CallToolResult); ok && err == nil {
		return &encodedResult{r}, nil
	}
	return res, err
}

// list is the tools/list result: every tool on one page, with the cache
// hints the SDK's own listing carries (rendered once per process).
func (c *catalog) list() *sdk.ListToolsResult {
	return c.p.listing().result()
}
