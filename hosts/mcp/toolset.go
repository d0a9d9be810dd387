package mcp

import (
	"encoding/json"
	"sync"
)

// Toolset is the part of a server that never changes while it runs: the
// tools of one profile with their compiled input schemas, indexed by
// name, and the tools/list answer (rendered on first use, once). Nothing
// in it is written after NewToolset returns, so any number of processes
// may share one; the HTTP face shares one between all its MCP sessions,
// where building it per session cost about 90 KiB a session.
type Toolset struct {
	tools   []Tool
	byName  map[string]*Tool
	listing func() (json.RawMessage, error)
}

// NewToolset returns the tools of the profile spec (SelectTools's syntax;
// "" is every tool), or SelectTools's error for an unknown name.
func NewToolset(spec string) (*Toolset, error) {
	tools, err := SelectTools(spec)
	if err != nil {
		return nil, err
	}
	return newToolset(tools), nil
}

func newToolset(tools []Tool) *Toolset {
	ts := &Toolset{tools: tools, byName: make(map[string]*Tool, len(tools))}
	for i := range ts.tools {
		// A pointer into the one slice: a copied Tool per entry would
		// cost every toolset some 14 KiB.
		ts.byName[ts.tools[i].Name] = &ts.tools[i]
	}
	ts.listing = sync.OnceValues(func() (json.RawMessage, error) { return renderListing(ts.tools) })
	return ts
}

// Len is the number of tools in the set.
func (ts *Toolset) Len() int { return len(ts.tools) }
