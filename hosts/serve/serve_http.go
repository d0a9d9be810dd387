package serve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/hostguard"
	"github.com/agenttool/collab/hosts/httpserve"
)

// HTTP serves MCP over Streamable HTTP, reporting version, to many clients until
// SIGINT/SIGTERM, then drains the calls in flight (bounded) and exits 0.
func HTTP(ctx context.Context, version string, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("serve", "serve [--http HOST:PORT] [--tls-cert F --tls-key F] [--no-auth-on-loopback] [flags]\n\n"+
		"Serves MCP over Streamable HTTP at /mcp (and /healthz) to every client holding a token from `token add`.")
	fs := c.Flags
	addr := fs.String("http", "127.0.0.1:7777", "listen address host:port")
	noAuth := fs.Bool("no-auth-on-loopback", false, "admit clients without a token (loopback addresses only)")
	cert := fs.String("tls-cert", "", "TLS certificate file (PEM)")
	key := fs.String("tls-key", "", "TLS private key file (PEM)")
	insecure := fs.Bool("insecure-plaintext", false, "allow plain HTTP on a non-loopback address (private networks only)")
	maxBody := fs.Int64("max-body", httpserve.DefaultMaxBodyBytes, "largest request body in bytes")
	perClient := fs.Int("client-concurrency", httpserve.DefaultClientConcurrency, "requests one client may have in flight")
	maxSessions := fs.Int("max-sessions", httpserve.DefaultMaxSessions, "live MCP sessions of all clients together; more are answered 429")
	maxClientSessions := fs.Int("max-client-sessions", httpserve.DefaultMaxClientSessions, "live MCP sessions of one token; more are answered 429")
	sessionIdle := fs.Duration("session-idle", httpserve.DefaultSessionIdle, "end an MCP session holding a bound collab session after this long without a request")
	unboundIdle := fs.Duration("unbound-session-idle", httpserve.DefaultUnboundIdle, "end an MCP session that never bound a collab session after this long without a request")
	drain := fs.Duration("drain", httpserve.DefaultTimeouts.Drain, "how long a shutdown waits for calls in flight")
	headerTimeout := fs.Duration("read-header-timeout", httpserve.DefaultTimeouts.ReadHeader, "time a client has to send its request headers")
	var hosts, origins command.List
	fs.Var(&hosts, "allow-host", "also answer to this Host name or name:port (repeatable; loopback names on the listening port always are)")
	fs.Var(&origins, "allow-origin", "accept this browser Origin (repeatable)")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	if *maxSessions < 1 || *maxClientSessions < 1 || *sessionIdle <= 0 || *unboundIdle <= 0 {
		return c.UsageFailure(stderr, "--max-sessions and --max-client-sessions must be at least 1, --session-idle and --unbound-session-idle positive")
	}
	if (*cert == "") != (*key == "") {
		return c.UsageFailure(stderr, "give both --tls-cert and --tls-key, or neither")
	}
	exposure := httpserve.Exposure{Addr: *addr, TLS: *cert != "", NoAuthOnLoopback: *noAuth, InsecurePlaintext: *insecure}
	warning, err := exposure.Check()
	if err != nil {
		fmt.Fprintf(stderr, "✖ %v\n", err)
		return 2
	}
	policy, err := hostguard.New(*addr, hosts, origins)
	if err != nil {
		fmt.Fprintf(stderr, "✖ %v\n", err)
		return 2
	}
	if warning != "" {
		fmt.Fprintf(stderr, "⚠ %s\n", warning)
	}
	var tlsConfig *tls.Config
	if *cert != "" {
		pair, err := tls.LoadX509KeyPair(*cert, *key)
		if err != nil {
			return command.Failure(stderr, fmt.Errorf("load TLS certificate: %w", err))
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	}
	choice, err := place.Database(place.OS())
	if err != nil {
		return command.Failure(stderr, err)
	}
	st, err := backend.Open(ctx, backend.Options{Path: choice.Path, Synchronous: os.Getenv(place.EnvSynchronous)})
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer st.Close()
	cfg := httpserve.Config{Store: st, Version: version, Hosts: policy, MaxBodyBytes: *maxBody,
		ClientConcurrency: *perClient, Log: stderr,
		MaxSessions: *maxSessions, MaxClientSessions: *maxClientSessions, SessionIdle: *sessionIdle, UnboundIdle: *unboundIdle}
	if !*noAuth {
		path, err := tokens.PathFor(choice.Path)
		if err != nil {
			return command.Failure(stderr, err)
		}
		cfg.Tokens = tokenStore(path, stderr)
	}
	srv, err := httpserve.New(cfg)
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return command.Failure(stderr, fmt.Errorf("listen on %s: %w", *addr, err))
	}
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
	}
	auth := "bearer tokens required"
	if *noAuth {
		auth = "no token needed on loopback"
	}
	fmt.Fprintf(stderr, "· agenttool-collab MCP listening on %s://%s/mcp (%s)\n", scheme, ln.Addr(), auth)
	err = srv.Serve(ctx, ln, tlsConfig, httpserve.Timeouts{ReadHeader: *headerTimeout, Drain: *drain})
	if err != nil && !errors.Is(err, context.Canceled) {
		return command.Failure(stderr, err)
	}
	fmt.Fprintln(stderr, "· agenttool-collab MCP stopped; every answered call is committed")
	return 0
}

// parseExpiry reads --expires: a Go duration or a whole number of days
// ("30d"); "" means never.
func parseExpiry(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	if days, ok := strings.CutSuffix(v, "d"); ok {
		var n int
		if _, err := fmt.Sscanf(days, "%d", &n); err == nil && n > 0 && fmt.Sprint(n) == days {
			return time.Duration(n) * 24 * time.Hour, nil
		}
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("--expires %q: use a positive duration such as 30d, 12h or 90m", v)
	}
	return d, nil
}

// tokenStore returns the Store that admits serve's clients. It says on
// stderr, once per change, when the token file stops being trusted (no
// client is admitted then) and when it is trusted again; the lines name
// the file by its base name, never its path.
func tokenStore(path string, stderr io.Writer) *tokens.Store {
	ts := tokens.NewStore(path, nil)
	ts.OnProblem(func(problem error) {
		if problem != nil {
			fmt.Fprintf(stderr, "✖ %v\n", problem)
			return
		}
		fmt.Fprintf(stderr, "· token file %s is trusted again; its tokens are admitted\n", tokens.FileName)
	})
	ts.Problem()
	return ts
}
