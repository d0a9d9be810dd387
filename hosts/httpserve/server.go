package httpserve

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/hostguard"
	"github.com/agenttool/collab/hosts/mcp"
)

// Defaults for Config's zero values.
const (
	DefaultMaxBodyBytes      = 4 << 20
	DefaultClientConcurrency = 8
	DefaultSessionIdle       = 30 * time.Minute
	// DefaultUnboundIdle ends a session that holds no bound collab
	// session after two idle minutes: a host binds within seconds of
	// initialize, and a client that never does is most likely gone.
	DefaultUnboundIdle = 2 * time.Minute
	// DefaultMaxClientSessions bounds one token's live MCP sessions: far
	// more agents than one person runs, far fewer than exhaust memory.
	DefaultMaxClientSessions = 128
	// DefaultMaxSessions bounds the live MCP sessions of all clients (at
	// about 30 KiB each, some 60 MiB).
	DefaultMaxSessions = 2048
)

// Config configures a Server.
type Config struct {
	// Store is the journal every session shares.
	Store *store.Store
	// Version is the server version reported to clients.
	Version string
	// Tokens admits clients; nil admits every request unauthenticated
	// (only ever chosen with --no-auth-on-loopback).
	Tokens *tokens.Store
	// Hosts decides which Host names and browser origins are answered
	// (403 otherwise). The zero value admits the loopback names on the
	// port a request arrived on, and the request's own origin.
	Hosts hostguard.Policy
	// MaxBodyBytes bounds a request body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// ClientConcurrency bounds one client's requests in flight
	// (DefaultClientConcurrency when 0); more are answered 429.
	ClientConcurrency int
	// SessionIdle closes an MCP session holding a bound collab session
	// after no request for this long (DefaultSessionIdle when 0).
	SessionIdle time.Duration
	// UnboundIdle closes an MCP session that holds no bound collab
	// session after no request for this long (DefaultUnboundIdle when 0).
	UnboundIdle time.Duration
	// MaxClientSessions bounds one client's live MCP sessions
	// (DefaultMaxClientSessions when 0); a new one beyond is answered 429.
	MaxClientSessions int
	// MaxSessions bounds all clients' live MCP sessions
	// (DefaultMaxSessions when 0); a new one beyond is answered 429.
	MaxSessions int
	// Log receives one line per event worth an operator's attention; never
	// a token or a credential path.
	Log io.Writer
}

// Server is the HTTP face: an http.Handler for /mcp and /healthz.
type Server struct {
	cfg    Config
	log    *slog.Logger
	resume *seat.ResumeIndex
	// tools is the one toolset every session serves.
	tools *mcp.Toolset
	// calls are the requests in flight, for cancellation (rpc.go).
	calls *callRegistry
	// stopping is closed when a drain starts; long-lived GET streams end.
	stopping chan struct{}
	stopOnce sync.Once

	indexMu sync.Mutex
	index   *search.Index

	// sessions owns the live MCP sessions, their caps and idle clocks.
	sessions *sessionTable

	mu       sync.Mutex
	inflight map[string]chan struct{} // principal -> slots of requests in flight
}

// anonymous is the principal of requests admitted without a token.
const anonymous = ""

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if cfg.ClientConcurrency == 0 {
		cfg.ClientConcurrency = DefaultClientConcurrency
	}
	if cfg.SessionIdle == 0 {
		cfg.SessionIdle = DefaultSessionIdle
	}
	if cfg.UnboundIdle == 0 {
		cfg.UnboundIdle = DefaultUnboundIdle
	}
	if cfg.MaxClientSessions == 0 {
		cfg.MaxClientSessions = DefaultMaxClientSessions
	}
	if cfg.MaxSessions == 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	idx, err := seat.NewResumeIndex(cfg.Store.Path())
	if err != nil {
		return nil, err
	}
	tools, err := mcp.NewToolset("")
	if err != nil {
		return nil, fmt.Errorf("build the tool catalogue: %w", err)
	}
	s := &Server{
		cfg: cfg, log: slog.New(slog.NewTextHandler(cfg.Log, nil)), resume: idx, tools: tools,
		calls: newCallRegistry(), stopping: make(chan struct{}),
		inflight: map[string]chan struct{}{},
	}
	s.sessions = newSessionTable(cfg, func(principal string, bound bool) {
		s.log.Info("session expired idle", "client", principal, "bound", bound)
	})
	return s, nil
}

// Handler routes /healthz and /mcp; everything else is 404.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	mux.Handle("/mcp", s.guard(http.HandlerFunc(s.serveMCP)))
	return mux
}

// stop starts a drain: long-lived streams end, requests in flight finish.
func (s *Server) stop() { s.stopOnce.Do(func() { close(s.stopping) }) }

// searchIndex opens the search sidecar on the first collab_search of any
// session; every session shares it. Close releases it.
func (s *Server) searchIndex(ctx context.Context) (*search.Index, error) {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	if s.index == nil {
		ix, err := search.Open(ctx, s.cfg.Store)
		if err != nil {
			return nil, err
		}
		s.index = ix
	}
	return s.index, nil
}

// Close stops the sessions' idle clocks and releases what the sessions
// shared (the search sidecar). Call it
// after Serve returns, before closing the store.
func (s *Server) Close() error {
	s.sessions.stopClocks()
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	if s.index == nil {
		return nil
	}
	err := s.index.Close()
	s.index = nil
	return err
}
