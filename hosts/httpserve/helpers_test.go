package httpserve_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/tokens"
	"github.com/agenttool/collab/hosts/httpserve"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// deadline bounds every wait of these tests; generous, since the machine
// is shared. Tests wait for replies, never for time.
const deadline = 2 * time.Minute

// rig is one running HTTP server over a fresh database.
type rig struct {
	t      *testing.T
	dir    string
	url    string
	addr   string
	tokens string
	repo   string
	store  *store.Store
	stop   context.CancelFunc
	done   chan error
	log    *lockedBuffer
}

// lockedBuffer is the server log, written from many goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newRig(t *testing.T, mutate func(*httpserve.Config), timeouts httpserve.Timeouts) *rig {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	st, err := backend.Open(ctx, backend.Options{Path: filepath.Join(dir, "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	tokPath, _ := tokens.PathFor(st.Path())
	logBuf := &lockedBuffer{}
	cfg := httpserve.Config{Store: st, Version: "test", Tokens: tokens.NewStore(tokPath, nil), Log: logBuf}
	if mutate != nil {
		mutate(&cfg)
	}
	srv, err := httpserve.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	serveCtx, stop := context.WithCancel(context.Background())
	r := &rig{t: t, dir: dir, addr: ln.Addr().String(), url: "http://" + ln.Addr().String() + "/mcp",
		tokens: tokPath, store: st, stop: stop, done: make(chan error, 1), log: logBuf}
	go func() { r.done <- srv.Serve(serveCtx, ln, nil, timeouts) }()
	t.Cleanup(func() {
		stop()
		<-r.done
		st.Close()
	})
	r.repo = gitRepo(t, filepath.Join(dir, "repo"))
	return r
}

// token adds a client token and returns it.
func (r *rig) token(name string) string {
	r.t.Helper()
	tok, err := tokens.Add(r.tokens, name, 0, time.Now())
	if err != nil {
		r.t.Fatal(err)
	}
	return tok
}

// client returns an initialised client of the named token.
func (r *rig) client(token, instance string) *httpmcptest.Client {
	r.t.Helper()
	c := &httpmcptest.Client{URL: r.url, Token: token, Instance: instance}
	if err := c.Initialize(ctxT(r.t)); err != nil {
		r.t.Fatalf("initialize: %v", err)
	}
	return c
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	t.Cleanup(cancel)
	return ctx
}

// ok calls a tool and fails the test unless it succeeds.
func ok(t *testing.T, c *httpmcptest.Client, tool string, args map[string]any) map[string]any {
	t.Helper()
	r := call(t, c, tool, args)
	if r.IsError || r.RPCError != nil {
		t.Fatalf("%s: %s", tool, r.Raw)
	}
	return r.Structured
}

func call(t *testing.T, c *httpmcptest.Client, tool string, args map[string]any) mcptest.Result {
	t.Helper()
	r, err := c.Call(ctxT(t), tool, args)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return r
}

func gitRepo(t *testing.T, dir string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func str(m map[string]any, keys ...string) string {
	var v any = m
	for _, k := range keys {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	s, _ := v.(string)
	return s
}

func num(m map[string]any, keys ...string) int64 {
	var v any = m
	for _, k := range keys {
		mm, _ := v.(map[string]any)
		v = mm[k]
	}
	f, _ := v.(float64)
	return int64(f)
}
