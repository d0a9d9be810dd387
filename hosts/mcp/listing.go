package mcp

import (
	"bytes"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// renderListing returns the tools/list result for tools, in their order
// (the catalogue's, see Tools): {"tools":[...]} and nothing else, each
// tool as encoding/json writes it without HTML escaping. It never changes
// while a server runs, so a toolset renders it once.
func renderListing(tools []Tool) (json.RawMessage, error) {
	list := struct {
		Tools []*sdk.Tool `json:"tools"`
	}{Tools: make([]*sdk.Tool, 0, len(tools))}
	for _, t := range tools {
		list.Tools = append(list.Tools, t.listing())
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(&list); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// listing is the tool as tools/list presents it.
func (t Tool) listing() *sdk.Tool {
	return &sdk.Tool{
		Name:        t.Name,
		Title:       t.Title,
		Description: t.Description,
		InputSchema: t.Input.topLevel(),
		Annotations: t.Class.annotations(),
	}
}

// profileTools is the tools this process serves: its toolset's.
func (p *Process) profileTools() []Tool { return p.toolset().tools }

// ownProfileTools is the process's profile, or every tool when its profile
// is invalid (serve refuses an invalid one before any server is built).
func (p *Process) ownProfileTools() []Tool {
	tools, err := p.Profile()
	if err != nil {
		return Tools()
	}
	return tools
}
