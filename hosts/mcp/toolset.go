package mcp

import "sync"

// Toolset is the part of a server that never changes while it runs: the
// tools of one profile with their compiled input schemas, the set of their
// names, and the tools/list answer (rendered on first use, once). Nothing
// in it is written after NewToolset returns, so any number of processes
// may share one; the HTTP face shares one between all its MCP sessions,
// where building it per session cost about 90 KiB a session.
type Toolset struct {
	tools   []Tool
	known   map[string]bool
	listing func() toolListing
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
	ts := &Toolset{tools: tools, known: make(map[string]bool, len(tools))}
	for _, t := range tools {
		ts.known[t.Name] = true
	}
	ts.listing = sync.OnceValue(func() toolListing { return renderListing(ts.tools) })
	return ts
}

// Len is the number of tools in the set.
func (ts *Toolset) Len() int { return len(ts.tools) }
