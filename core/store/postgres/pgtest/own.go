package pgtest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// OwnServer is a PostgreSQL server started for one test alone (by
// .ci/postgres start), for drills that restart or stop the server and so
// must not disturb the shared one other tests use at the same time.
type OwnServer struct {
	// URL names the server's postgres database as its superuser (the
	// form COLLAB_TEST_POSTGRES takes).
	URL string
	// Dir is the server's directory (data and socket), as
	// COLLAB_TEST_POSTGRES_DIR.
	Dir string
	// TCPURL, for a server started by StartTeamServer, names the same
	// database over TCP with the superuser's password, as a team's
	// machines reach their server. Never log it.
	TCPURL string
	script string
}

// StartOwnServer starts a throwaway server with .ci/postgres start and
// stops it (removing its directory) when the test ends. Like Server, it
// skips without COLLAB_TEST_POSTGRES locally and fails under CI=true: a
// machine with a test server can start another. Its fsync is off, as the
// shared server's is.
func StartOwnServer(t testing.TB) *OwnServer {
	t.Helper()
	return startOwn(t)
}

// StartDurableServer is StartOwnServer with the server's durability
// settings at their defaults (.ci/postgres start --durable: fsync,
// synchronous_commit and full_page_writes on), so that a crash (Crash)
// keeps exactly the commits the server acknowledged, as on a production
// server.
func StartDurableServer(t testing.TB) *OwnServer {
	t.Helper()
	return startOwn(t, "--durable")
}

// StartTeamServer is StartDurableServer also listening on TCP at listen
// (an IPv4 host:port of this machine), admitting clients from the network
// allow (an IPv4 CIDR) by password (.ci/postgres start --listen --allow):
// the server a team's machines share. Its TCPURL carries the password.
func StartTeamServer(t testing.TB, listen, allow string) *OwnServer {
	t.Helper()
	s := startOwn(t, "--durable", "--listen", listen, "--allow", allow)
	if s.TCPURL == "" {
		t.Fatalf("%s start --listen printed no TCP address", s.script)
	}
	return s
}

func startOwn(t testing.TB, args ...string) *OwnServer {
	t.Helper()
	Server(t)
	script := findScript(t)
	out, err := exec.Command("bash", append([]string{script, "start"}, args...)...).Output()
	if err != nil {
		t.Fatalf("%s start: %v\n%s", script, err, stderrOf(err))
	}
	s := &OwnServer{script: script}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, value, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "export "), "=")
		if !ok {
			continue
		}
		value = strings.Trim(value, "'")
		switch name {
		case ServerEnv:
			s.URL = value
		case ServerEnv + "_DIR":
			s.Dir = value
		case ServerEnv + "_TCP":
			s.TCPURL = value
		}
	}
	if s.URL == "" || s.Dir == "" {
		t.Fatalf("%s start printed no server: %q", script, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command("bash", script, "stop", s.Dir).CombinedOutput(); err != nil {
			t.Errorf("%s stop %s: %v\n%s", script, s.Dir, err, out)
		}
	})
	return s
}

// Restart restarts the server with a fast shutdown (every open
// connection is ended) and returns once it accepts connections again.
func (s *OwnServer) Restart(t testing.TB) {
	t.Helper()
	if out, err := exec.Command("bash", s.script, "restart", s.Dir).CombinedOutput(); err != nil {
		t.Fatalf("%s restart: %v\n%s", s.script, err, out)
	}
}

// Crash kills the server as a power cut or an OOM kill would (SIGKILL to
// the postmaster and every process it started, at once), starts it again
// with the same settings, and returns once it accepts connections, its
// crash recovery done (.ci/postgres crash).
func (s *OwnServer) Crash(t testing.TB) {
	t.Helper()
	if out, err := exec.Command("bash", s.script, "crash", s.Dir).CombinedOutput(); err != nil {
		t.Fatalf("%s crash: %v\n%s", s.script, err, out)
	}
}

// findScript finds .ci/postgres in the working directory or above it (go
// test runs a package's tests in the package's directory).
func findScript(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		p := filepath.Join(dir, ".ci", "postgres")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no .ci/postgres above the working directory")
		}
		dir = parent
	}
}

func stderrOf(err error) string {
	if ee, ok := err.(*exec.ExitError); ok {
		return string(ee.Stderr)
	}
	return ""
}
