package mcp

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// toolListing is the tools/list answer of one process: every tool of its
// profile on one page, sorted by name, with the cache hint the SDK's own
// registry gives, and the bytes the SDK writes for it. It never changes
// while the process runs (the profile is read from its environment), so it
// is rendered once: the SDK encoded it again for every request, running
// each input schema's raw bytes through encoding/json's validator.
type toolListing struct {
	tools   []*sdk.Tool
	encoded json.RawMessage // nil when encoding failed: the SDK answers then
}

// renderListing builds the listing of tools.
func renderListing(tools []Tool) toolListing {
	l := toolListing{tools: make([]*sdk.Tool, 0, len(tools))}
	for _, t := range tools {
		l.tools = append(l.tools, t.listing())
	}
	slices.SortFunc(l.tools, func(a, b *sdk.Tool) int { return strings.Compare(a.Name, b.Name) })
	if b, err := encodeLikeSDK(l.result()); err == nil {
		l.encoded = b
	}
	return l
}

// result is a fresh tools/list result holding the listing's tools.
func (l toolListing) result() *sdk.ListToolsResult {
	res := &sdk.ListToolsResult{Tools: l.tools}
	res.CacheScope = "public"
	return res
}

// encodeLikeSDK encodes a result as the SDK's JSON-RPC layer does before
// writing it: encoding/json without HTML escaping, no trailing newline.
func encodeLikeSDK(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// profileTools is the tools this process serves: its toolset's.
func (p *Process) profileTools() []Tool { return p.toolset().tools }

// listing is the tools/list answer of the process's toolset.
func (p *Process) listing() toolListing { return p.toolset().listing() }

// ownProfileTools is the process's profile, or every tool when its profile
// is invalid (serve refuses an invalid one before any server is built).
func (p *Process) ownProfileTools() []Tool {
	tools, err := p.Profile()
	if err != nil {
		return Tools()
	}
	return tools
}
