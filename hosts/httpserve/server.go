package httpserve

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/mcp"
)

// Defaults for Config's zero values.
const (
	DefaultMaxBodyBytes      = 4 << 20
	DefaultClientConcurrency = 8
	DefaultSessionIdle       = 30 * time.Minute
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
	// AllowedHosts are the Host header values (host or host:port) accepted
	// besides the loopback names; empty with LoopbackOnly false accepts any.
	AllowedHosts []string
	// LoopbackOnly restricts Host to loopback names and addresses.
	LoopbackOnly bool
	// AllowedOrigins are browser origins accepted besides the request's own
	// (an Origin header naming another site is refused).
	AllowedOrigins []string
	// MaxBodyBytes bounds a request body (DefaultMaxBodyBytes when 0).
	MaxBodyBytes int64
	// ClientConcurrency bounds one client's requests in flight
	// (DefaultClientConcurrency when 0); more are answered 429.
	ClientConcurrency int
	// SessionIdle closes an MCP session with no request for this long.
	SessionIdle time.Duration
	// Log receives one line per event worth an operator's attention; never
	// a token or a credential path.
	Log io.Writer
}

// Server is the HTTP face: an http.Handler for /mcp and /healthz.
type Server struct {
	cfg    Config
	log    *slog.Logger
	mcp    *sdk.StreamableHTTPHandler
	resume *resumeIndex
	// versions answers the SDK's per-request protocol-version lookups; it
	// never serves a session.
	versions *sdk.Server
	// calls are the requests in flight, for cancellation (rpc.go).
	calls *callRegistry
	// listing orders tools/list answers as stdio orders them (rpc.go).
	listing *mcp.ListingOrder
	// stopping is closed when a drain starts; long-lived GET streams end.
	stopping chan struct{}
	stopOnce sync.Once

	indexMu sync.Mutex
	index   *search.Index

	mu       sync.Mutex
	owners   map[string]owner         // MCP session id -> who created it
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
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	idx, err := newResumeIndex(cfg.Store.Path())
	if err != nil {
		return nil, err
	}
	s := &Server{
		cfg: cfg, log: slog.New(slog.NewTextHandler(cfg.Log, nil)), resume: idx,
		calls: newCallRegistry(), listing: mcp.NewListingOrder(), stopping: make(chan struct{}), owners: map[string]owner{}, inflight: map[string]chan struct{}{},
	}
	s.versions = mcp.NewServer(cfg.Version, mcp.NewProcess(mcp.ProcessConfig{}))
	s.mcp = sdk.NewStreamableHTTPHandler(s.sessionServer, &sdk.StreamableHTTPOptions{
		JSONResponse:        true,
		SessionTimeout:      cfg.SessionIdle,
		MaxRequestBodyBytes: cfg.MaxBodyBytes,
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
	mux.Handle("/mcp", s.guard(s.rpc(s.mcp)))
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

// Close releases what the sessions shared (the search sidecar). Call it
// after Serve returns, before closing the store.
func (s *Server) Close() error {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	if s.index == nil {
		return nil
	}
	err := s.index.Close()
	s.index = nil
	return err
}
