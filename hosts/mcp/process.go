package mcp

import (
	"context"
	"runtime"
	"sync"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
)

// Process is the state one MCP server process keeps between calls: the
// open store, the environment it reads, and at most one credential-bound
// session. Calls are serialised, so handlers see a consistent binding; a
// call whose context ends while it waits for its turn is not run.
type Process struct {
	// seat is the binding, the turn, the caller and the scrub (core/seat).
	seat   *seat.Seat
	store  *store.Store
	getenv func(string) string
	// index is the search sidecar, opened by the first collab_search.
	index *search.Index
	// onBind and onUnbind observe the binding starting and ending.
	onBind, onUnbind func(sessionID string)
	// openIndex, when set, returns a search index shared with other processes.
	openIndex func(context.Context) (*search.Index, error)
	// changes is the store's shared change poller, made on first use.
	changesOnce sync.Once
	changes     *wake.Changes
	// stopping, when closed, ends every collab_wait with reason shutdown.
	stopping <-chan struct{}
	// channel, when enabled (EnableChannel), pushes notices to the client.
	channel *channel
	// toolset is the profile's tools and their tools/list answer: the
	// caller's shared one, or this process's own, made on first use.
	toolset func() *Toolset
	// host is what holds the sessions this process binds (ProcessConfig.Host);
	// its Kind is "" when the process records none.
	host store.SessionHost
}

// ProcessConfig configures NewProcess.
type ProcessConfig struct {
	Store  *store.Store
	Getenv func(string) string
	// Principal, when set, names the authenticated client this process
	// serves (an HTTP token's name). collab_session_start records it as
	// the prefix of the session's actor ("principal/actor"), so status and
	// every session listing show who connected; result shapes are unchanged.
	Principal string
	// OnBind, when set, is called (during the call, in its turn) after
	// collab_session_start or a resume binds a session.
	OnBind func(sessionID string)
	// OnUnbind, when set, is called after collab_session_end releases it.
	OnUnbind func(sessionID string)
	// SearchIndex, when set, supplies the search sidecar instead of this
	// process opening its own, so many processes of one server share one
	// index (and one connection to it) whose lifetime the caller owns.
	SearchIndex func(context.Context) (*search.Index, error)
	// Stopping, when set, is closed when the server starts to shut down:
	// every collab_wait in flight then answers at once (woke false,
	// reason "shutdown") instead of holding the drain. nil never closes.
	Stopping <-chan struct{}
	// Tools, when set, is the toolset this process serves, shared with
	// other processes of one server; when nil the process builds its own
	// from its environment's profile on first use.
	Tools *Toolset
	// Host, when set, describes what holds the sessions this process
	// binds (the kind of host and, for a stdio server, its own process):
	// it is recorded for each session bound, with the client's name and
	// version once its initialize arrives (see core/seat.Seat.Describe).
	Host *store.SessionHost
}

// NewProcess returns the per-process state for a server over st.
func NewProcess(cfg ProcessConfig) *Process {
	getenv := cfg.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	p := &Process{store: cfg.Store, getenv: getenv, seat: seat.New(cfg.Store, cfg.Principal),
		onBind: cfg.OnBind, onUnbind: cfg.OnUnbind, openIndex: cfg.SearchIndex,
		stopping: cfg.Stopping}
	if cfg.Host != nil {
		p.host = *cfg.Host
		p.seat.Describe(context.Background(), p.host) // nothing is bound yet: this records nothing
	}
	p.toolset = sync.OnceValue(func() *Toolset {
		if cfg.Tools != nil {
			return cfg.Tools
		}
		return newToolset(p.ownProfileTools())
	})
	return p
}

// env is the environment this process reads, as the path rules take it.
// An empty value counts as unset, which is how every rule that reads
// through getenv treats it.
func (p *Process) env() place.Env {
	return place.Env{GOOS: runtime.GOOS, Lookup: func(name string) (string, bool) {
		v := p.getenv(name)
		return v, v != ""
	}}
}

// scrub removes the credential directory and any bound token from text
// that is about to leave the process.
func (p *Process) scrub(text string) string { return p.seat.Scrub(text) }

func (p *Process) notifyBind(sessionID string) {
	if p.channel != nil {
		p.channel.bind(p.seat)
	}
	if p.onBind != nil {
		p.onBind(sessionID)
	}
}

func (p *Process) notifyUnbind(sessionID string) {
	if p.channel != nil {
		p.channel.unbind(true)
	}
	if p.onUnbind != nil {
		p.onUnbind(sessionID)
	}
}

// changeFeed returns the process's one change poller over its store, so
// any number of concurrent collab_wait calls share one probe.
func (p *Process) changeFeed() *wake.Changes {
	p.changesOnce.Do(func() { p.changes = wake.NewChanges(p.store) })
	return p.changes
}
