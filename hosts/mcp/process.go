package mcp

import (
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// Process is the state one MCP server process keeps between calls: the
// open store, the environment it reads, and at most one credential-bound
// session. Calls are serialised, so handlers see a consistent binding; a
// call whose context ends while it waits for its turn is not run.
type Process struct {
	// turn holds one token while a call (or the resume) uses the binding.
	turn    chan struct{}
	store   *store.Store
	getenv  func(string) string
	binding *binding
	// index is the search sidecar, opened by the first collab_search.
	index *search.Index
}

// ProcessConfig configures NewProcess.
type ProcessConfig struct {
	Store  *store.Store
	Getenv func(string) string
}

// NewProcess returns the per-process state for a server over st.
func NewProcess(cfg ProcessConfig) *Process {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return &Process{store: cfg.Store, getenv: getenv, turn: make(chan struct{}, 1)}
}

// credentialDir is the directory holding session credential files for
// this database; it must never appear in any output.
func (p *Process) credentialDir() string {
	if p.store == nil || p.store.Path() == store.MemoryPath {
		return ""
	}
	return filepath.Join(filepath.Dir(p.store.Path()), "collab-sessions")
}

// scrub removes the credential directory and any bound token from text
// that is about to leave the process.
func (p *Process) scrub(text string) string {
	if dir := p.credentialDir(); dir != "" {
		text = strings.ReplaceAll(text, dir, "<credential-dir>")
	}
	if p.binding != nil && p.binding.token != "" {
		text = strings.ReplaceAll(text, p.binding.token, "<redacted>")
	}
	return text
}
