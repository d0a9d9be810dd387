package mcp

import (
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

// Process is the state one MCP server process keeps between calls: the
// open store, the environment it reads, and at most one credential-bound
// session. Calls are serialised, so handlers see a consistent binding.
type Process struct {
	// inflight counts tool calls being handled, so that shutdown can let
	// them finish.
	inflight atomic.Int64
	mu       sync.Mutex
	store    *store.Store
	getenv   func(string) string
	binding  *binding
	// changes is the store's shared change poller, made on first use.
	changesOnce sync.Once
	changes     *wake.Changes
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
	return &Process{store: cfg.Store, getenv: getenv}
}

// InFlight reports how many tool calls are being handled right now.
func (p *Process) InFlight() int64 { return p.inflight.Load() }

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

// changeFeed returns the process's one change poller over its store, so
// any number of concurrent collab_wait calls share one probe.
func (p *Process) changeFeed() *wake.Changes {
	p.changesOnce.Do(func() { p.changes = wake.NewChanges(p.store) })
	return p.changes
}
