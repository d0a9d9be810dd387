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
	Dir    string
	script string
}

// StartOwnServer starts a throwaway server with .ci/postgres start and
// stops it (removing its directory) when the test ends. Like Server, it
// skips without COLLAB_TEST_POSTGRES locally and fails under CI=true: a
// machine with a test server can start another.
func StartOwnServer(t testing.TB) *OwnServer {
	t.Helper()
	Server(t)
	script := findScript(t)
	out, err := exec.Command("bash", script, "start").Output()
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
