package web

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/seat"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/dbfile"
	"github.com/agenttool/collab/hosts/hostguard"
)

// webTokenEnv names the access token required when the view listens
// beyond loopback.
const webTokenEnv = place.EnvWebToken

// Command serves the web view until ctx ends: read-only, or with --act
// also the acting page. It exits 2 on bad flags or a refused bind, 1 when
// the database cannot be opened.
func Command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c := command.NewParser("web", "web [--addr 127.0.0.1:8484] [--db FILE] [--open] [--act [--as NAME]] [--allow-remote] [--allow-host NAME]\n\n"+
		"Serves a live, read-only view of the journal. It answers to localhost, 127.0.0.1 and [::1] on its\n"+
		"port, and to names given with --allow-host. Beyond loopback it needs --allow-remote and a\ntoken in "+
		webTokenEnv+" (send it as a bearer token, or open /?token=… once to set a cookie).\n"+
		"With --act each workspace also gets an Act page: post, decide, review, answer handoffs, create\n"+
		"and release tasks as your own session (the one collab post uses), every form guarded against\n"+
		"other sites by a same-origin check and a per-page token.")
	fs := c.Flags
	addr := fs.String("addr", "127.0.0.1:8484", "address to listen on (host:port; port 0 picks one)")
	db := fs.String("db", "", "database file (default: the one the server would open)")
	open := fs.Bool("open", false, "open the view in a browser")
	remote := fs.Bool("allow-remote", false, "allow a non-loopback address (requires "+webTokenEnv+")")
	act := fs.Bool("act", false, "let the person act from the page as their own session (off: strictly read-only)")
	as := fs.String("as", "", "with --act: your actor name when your session starts (default $"+place.EnvPerson+", else person:<login>)")
	var hosts command.List
	fs.Var(&hosts, "allow-host", "also answer to this Host name or name:port (repeatable; loopback names on the listening port always are)")
	if _, code, done := c.Parse(args, 0, 0, stdout, stderr); done {
		return code
	}
	token := os.Getenv(webTokenEnv)
	loopback, err := hostguard.LoopbackAddr(*addr)
	if err != nil {
		command.Failure(stderr, fmt.Errorf("--addr: %w", err))
		return 2
	}
	policy, err := hostguard.New(*addr, hosts, nil)
	if err != nil {
		command.Failure(stderr, err)
		return 2
	}
	if !loopback {
		if !*remote || token == "" {
			fmt.Fprintf(stderr, "✖ refusing to listen on %s: beyond loopback the view needs --allow-remote and a token in %s\n", *addr, webTokenEnv)
			return 2
		}
		fmt.Fprintf(stderr, "⚠ listening on %s, beyond loopback: anyone who can reach it and holds the token can read every journal in this database\n", *addr)
		if *act {
			fmt.Fprintf(stderr, "⚠ --act beyond loopback: whoever holds the token can also act as you\n")
		}
	}
	path, _, err := dbfile.ReadTarget(*db)
	if err != nil {
		return command.Failure(stderr, err)
	}
	st, err := backend.Open(ctx, backend.Options{Path: path, ReadOnly: true})
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer st.Close()
	if loopback {
		token = "" // loopback is trusted, as every other local face is
	}
	// The search box reads the same sidecar index as collab_search and the
	// search command (created or repaired beside the database; the
	// database itself is only read). Without it the box is shown disabled.
	opts := Options{Store: st, Hosts: policy, Token: token, AnchorLedger: place.AnchorLedger(place.OS())}
	if ix, err := search.Open(ctx, st); err != nil {
		fmt.Fprintf(stderr, "⚠ search is off: %v\n", err)
	} else {
		defer ix.Close()
		opts.Search = IndexSearcher(ix)
	}
	if *act {
		acting, closeActing, err := openActing(ctx, st, path, *as)
		if err != nil {
			return command.Failure(stderr, err)
		}
		defer closeActing()
		opts.Act = acting
		switch {
		case !loopback:
			// The access token, required beyond loopback, admits the person.
		case CanTellPeers():
			acting.Peer = SameUser
		default:
			fmt.Fprintf(stderr, "⚠ --act: this system does not say which local user opens a connection, so every local user who can reach %s can act as you\n", *addr)
		}
	}
	srv, err := New(ctx, opts)
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer srv.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return command.Failure(stderr, fmt.Errorf("listen on %s: %w", *addr, err))
	}
	url := "http://" + ln.Addr().String() + "/"
	mode := "read-only"
	if *act {
		mode = "acting as " + opts.Act.Actor + " from each workspace's Act page"
	}
	fmt.Fprintf(stdout, "collab web: serving %s (%s; Ctrl-C stops)\n", url, mode)
	if *open {
		openBrowser(url, stderr)
	}
	return serveWeb(ctx, ln, srv, stderr)
}

// openActing opens the database at path for writing, for the person's
// actions; the pages keep reading through the read-only store ro. A
// database that needs migration is refused: acting must not migrate it
// behind the view's back.
func openActing(ctx context.Context, ro *store.Store, path, as string) (*Acting, func(), error) {
	old, err := ro.NeedsMigration(ctx)
	if err != nil {
		return nil, nil, err
	}
	if old {
		return nil, nil, fmt.Errorf("--act: %s needs migration first (start the server on it once)", place.Shown(path))
	}
	rw, err := backend.Open(ctx, backend.Options{Path: path})
	if err != nil {
		return nil, nil, fmt.Errorf("open %s to act: %w", place.Shown(path), err)
	}
	env := place.OS()
	return &Acting{Store: rw, Actor: seat.PersonActor(as, env),
		Credential: func(ws string) (string, error) { return place.PersonCredential(env, path, ws) },
	}, func() { rw.Close() }, nil
}

// serveWeb serves until ctx ends, then gives open requests a moment.
// Every request's context derives from ctx, so a signal also interrupts
// the searches and streams under way instead of waiting for them.
func serveWeb(ctx context.Context, ln net.Listener, h http.Handler, stderr io.Writer) int {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return command.Failure(stderr, err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hs.Shutdown(shut) //nolint:errcheck // live streams are cut at the deadline
	return 0
}

func openBrowser(url string, stderr io.Writer) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	if err := exec.Command(name, url).Start(); err != nil {
		fmt.Fprintf(stderr, "could not open a browser (%v); open %s yourself\n", err, url)
	}
}
