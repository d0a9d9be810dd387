package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/store/postgres/pgtest"
	"github.com/agenttool/collab/hosts/httpserve/httpmcptest"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// teamPort is the port every machine's `serve` listens on: each machine
// has a network namespace, so a port, of its own.
const teamPort = "7777"

// team is a team's deployment of collab (issue 41, goal 4): machines, each
// running one `serve` over HTTP with a token per client, all on one
// journal. On PostgreSQL each machine is a network namespace of its own
// on a test network and reaches the team's server over TCP with a
// password; on SQLite one machine, this one, serves on loopback. Every
// setting is one a user would make: the database address, `token add`,
// `serve --http ADDR --insecure-plaintext` on a private network.
type team struct {
	t        testing.TB
	db       string            // every machine's AGENTOOL_COLLAB_DB
	pg       *pgtest.OwnServer // nil on SQLite
	net      *testNet          // nil on SQLite
	machines []*teamMachine
	repo     string
}

// teamMachine is one machine of a team: its own home and data folders,
// its `serve` process and the tokens of its clients.
type teamMachine struct {
	index  int
	sb     *sandbox
	srv    *httpServer
	tokens []string
}

// startPostgresTeam starts serves machines with clientsPer tokens each,
// on a fresh database of a durable PostgreSQL server of the test's own
// listening on the test network's gateway. It skips (fails under CI=true)
// without a PostgreSQL test server, root or iproute2.
func startPostgresTeam(t testing.TB, serves, clientsPer int) *team {
	t.Helper()
	pgtest.Server(t)
	n := newTestNet(t, serves)
	pg := pgtest.StartTeamServer(t, net.JoinHostPort(n.Gateway(), freePort(t, n.Gateway())), n.CIDR())
	fresh, err := neturl.Parse(pgtest.FreshDatabaseOn(t, pg.URL))
	if err != nil {
		t.Fatal(err)
	}
	db, err := neturl.Parse(pg.TCPURL)
	if err != nil {
		t.Fatal("the team server's TCP address is not a URL")
	}
	db.Path = fresh.Path
	tm := &team{t: t, db: db.String(), pg: pg, net: n}
	for i := 0; i < serves; i++ {
		sb := newSandbox(t)
		sb.db = tm.db
		m := &teamMachine{index: i, sb: sb}
		for j := 0; j < clientsPer; j++ {
			m.tokens = append(m.tokens, tm.tokenOn(m, fmt.Sprintf("agent-%d-%d", i, j)))
		}
		m.srv = sb.startServe(n.Command(i, os.Args[0], "serve", "--http", net.JoinHostPort(n.Addr(i), teamPort), "--insecure-plaintext"))
		tm.machines = append(tm.machines, m)
	}
	tm.repo = tm.machines[0].sb.repo("team", map[string]string{"README": "a team's repository\n"})
	return tm
}

// startSQLiteTeam is the same load's SQLite deployment: one `serve` on
// loopback with clients tokens.
func startSQLiteTeam(t testing.TB, clients int) *team {
	t.Helper()
	sb := newSandbox(t)
	m := &teamMachine{sb: sb}
	for j := 0; j < clients; j++ {
		m.tokens = append(m.tokens, sb.token(fmt.Sprintf("agent-0-%d", j)))
	}
	m.srv = sb.serveHTTP()
	tm := &team{t: t, db: sb.db, machines: []*teamMachine{m}}
	tm.repo = sb.repo("team", map[string]string{"README": "a team's repository\n"})
	return tm
}

// tokenOn runs `token add NAME` on machine m, as its user would.
func (tm *team) tokenOn(m *teamMachine, name string) string {
	tm.t.Helper()
	cmd := tm.net.Command(m.index, os.Args[0], "token", "add", name)
	cmd.Env = m.sb.env()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		tm.t.Fatalf("token add %s on machine %d: %v\n%s", name, m.index, err, errOut.String())
	}
	return strings.TrimSpace(out.String())
}

// restart starts machine i's `serve` again (after a kill).
func (tm *team) restart(i int) {
	tm.t.Helper()
	m := tm.machines[i]
	if tm.net == nil {
		m.srv = m.sb.serveHTTP()
		return
	}
	m.srv = m.sb.startServe(tm.net.Command(i, os.Args[0], "serve", "--http", net.JoinHostPort(tm.net.Addr(i), teamPort), "--insecure-plaintext"))
}

// clients opens one MCP session per token of every machine, machine by
// machine, each over an HTTP connection of its own (every agent is a
// process of its own), and returns them as callers.
func (tm *team) clients(ctx context.Context) []caller {
	tm.t.Helper()
	var out []caller
	for _, m := range tm.machines {
		for _, token := range m.tokens {
			out = append(out, tm.client(ctx, m, token))
		}
	}
	return out
}

// client opens one MCP session on machine m's `serve` with token.
func (tm *team) client(ctx context.Context, m *teamMachine, token string) caller {
	tm.t.Helper()
	transport := &http.Transport{MaxIdleConnsPerHost: 2}
	tm.t.Cleanup(transport.CloseIdleConnections)
	c := &httpmcptest.Client{URL: m.srv.url, Token: token, HTTP: &http.Client{Transport: transport}}
	if err := c.Initialize(ctx); err != nil {
		tm.t.Fatalf("initialize on machine %d: %v\n%s", m.index, err, m.srv.stderr.String())
	}
	return func(tool string, args map[string]any) (mcptest.Result, error) { return c.Call(ctx, tool, args) }
}

// bind starts a collab session for each of calls, all at once, under an
// actor named for what and the client's index.
func (tm *team) bind(calls []caller, what string) {
	tm.t.Helper()
	var wg sync.WaitGroup
	errs := make([]string, len(calls))
	for i, call := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := call("collab_session_start", map[string]any{"root_path": tm.repo, "actor": fmt.Sprintf("%s-%d", what, i)})
			if err != nil {
				errs[i] = err.Error()
			} else if r.IsError || r.RPCError != nil {
				errs[i] = string(r.Raw)
			}
		}()
	}
	wg.Wait()
	for i, e := range errs {
		if e != "" {
			tm.t.Fatalf("session_start of client %d: %s", i, e)
		}
	}
}

// workspace opens the team's workspace for a client of machine 0 (no
// session bound) and returns its id.
func (tm *team) workspace(ctx context.Context) string {
	tm.t.Helper()
	ws, _ := setupContested(tm.t, tm.client(ctx, tm.machines[0], tm.machines[0].tokens[0]), tm.repo, 0)
	return ws
}

// requireNoPasswordLogged fails if any machine's `serve` wrote the
// database password to its stderr.
func (tm *team) requireNoPasswordLogged() {
	tm.t.Helper()
	u, err := neturl.Parse(tm.db)
	if err != nil || u.User == nil {
		return
	}
	password, ok := u.User.Password()
	if !ok || password == "" {
		return
	}
	for _, m := range tm.machines {
		if strings.Contains(m.srv.stderr.String(), password) {
			tm.t.Errorf("machine %d's serve logged the database password", m.index)
		}
	}
}

// freePort returns a TCP port free on host at the time of the call.
func freePort(t testing.TB, host string) string {
	t.Helper()
	ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatalf("find a free port on %s: %v", host, err)
	}
	defer ln.Close()
	return strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
}
