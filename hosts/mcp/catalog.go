package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// catalog answers tools/list and tools/call for one server in place of the
// SDK's tool registry. Registering a tool with the SDK re-encodes and
// re-decodes its input schema twice (about 40% of a stdio server's start,
// before it can answer initialize); the catalog instead renders the
// schemas on the first tools/list or tools/call and keeps them. What a
// client sees is what the SDK's registry gave: the same listing, sorted by
// name, and the same answers.
type catalog struct {
	p    *Process
	once sync.Once
	// Set once by load.
	byName  map[string]Tool
	listing []*sdk.Tool
}

func newCatalog(p *Process) *catalog { return &catalog{p: p} }

// load builds the tool table and the listing, once.
func (c *catalog) load() {
	c.once.Do(func() {
		tools, err := c.p.Profile()
		if err != nil {
			tools = Tools()
		}
		c.byName = make(map[string]Tool, len(tools))
		c.listing = make([]*sdk.Tool, 0, len(tools))
		for _, t := range tools {
			c.byName[t.Name] = t
			c.listing = append(c.listing, &sdk.Tool{
				Name:        t.Name,
				Title:       t.Title,
				Description: t.Description,
				InputSchema: t.Input.topLevel(),
				Annotations: t.Class.annotations(),
			})
		}
		slices.SortFunc(c.listing, func(a, b *sdk.Tool) int { return strings.Compare(a.Name, b.Name) })
	})
}

// middleware answers tools/list (first page; a cursor, which this server
// never hands out, goes to the SDK) and tools/call. A call to a tool this
// server does not have is JSON-RPC invalid params ("Tool <name> not
// found"), as a hidden tool is.
func (c *catalog) middleware(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		switch r := req.(type) {
		case *sdk.ListToolsRequest:
			if method == "tools/list" && (r.Params == nil || r.Params.Cursor == "") {
				return c.list(), nil
			}
		case *sdk.CallToolRequest:
			if method == "tools/call" {
				return c.call(ctx, r)
			}
		}
		return next(ctx, method, req)
	}
}

// list is the tools/list result: every tool on one page, with the cache
// hints the SDK's own listing carries.
func (c *catalog) list() *sdk.ListToolsResult {
	c.load()
	res := &sdk.ListToolsResult{Tools: c.listing}
	res.CacheScope = "public"
	return res
}

func (c *catalog) call(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
	c.load()
	t, ok := c.byName[req.Params.Name]
	if !ok {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Tool %s not found", req.Params.Name)}
	}
	res, err := c.p.call(ctx, t, req.Params.Arguments)
	if err == nil && res != nil && res.Content == nil {
		res.Content = []sdk.Content{} // as the SDK does: never "content": null
	}
	return res, err
}
