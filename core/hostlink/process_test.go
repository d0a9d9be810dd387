package hostlink_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/hostlink"
)

// The test binary plays three parts, chosen by roleVar: a host that
// starts servers directly and hooks through `sh -c`, as Claude Code does;
// a server that writes its link and waits; a hook that prints the session
// it finds.
const roleVar = "HOSTLINK_TEST_ROLE"

func TestMain(m *testing.M) {
	switch os.Getenv(roleVar) {
	case "host":
		os.Exit(playHost())
	case "server":
		os.Exit(playServer())
	case "hook":
		os.Exit(playHook())
	}
	os.Exit(m.Run())
}

// playHost reads commands on stdin: "server SESSION" starts a server
// (waiting until its record is written), "hook" runs a hook and prints
// what it found, "crash" kills the newest server without letting it
// clean up.
func playHost() int {
	var servers []*exec.Cmd
	var keep []io.WriteCloser
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch f[0] {
		case "server":
			c := exec.Command(os.Args[0])
			c.Env = append(os.Environ(), roleVar+"=server", "HOSTLINK_TEST_SESSION="+f[1])
			out, _ := c.StdoutPipe()
			hold, _ := c.StdinPipe() // closed when this host exits
			keep = append(keep, hold)
			if c.Start() != nil {
				return 1
			}
			line, _ := bufio.NewReader(out).ReadString('\n')
			servers = append(servers, c)
			fmt.Println("started", strings.TrimSpace(line))
		case "hook":
			c := exec.Command("/bin/sh", "-c", `"$0" ; true`, os.Args[0])
			c.Env = append(os.Environ(), roleVar+"=hook")
			out, err := c.Output()
			if err != nil {
				return 1
			}
			fmt.Println("found", strings.TrimSpace(string(out)))
		case "crash":
			s := servers[len(servers)-1]
			s.Process.Kill()
			s.Wait()
			servers = servers[:len(servers)-1]
			fmt.Println("crashed")
		}
	}
	_ = keep
	return 0
}

func playServer() int {
	self, ok := hostlink.Identify(os.Getpid())
	host, ok2 := hostlink.HostOf(os.Getpid())
	if !ok || !ok2 {
		fmt.Println("no-identity")
		return 1
	}
	id := os.Getenv("HOSTLINK_TEST_SESSION")
	err := hostlink.Write(os.Getenv("HOSTLINK_TEST_DIR"), hostlink.Record{SessionID: id,
		CredentialFile: "/nowhere/" + id + ".json", Host: host, Server: self,
		Conversation: os.Getenv("HOSTLINK_TEST_CONVERSATION"), Written: time.Now()})
	if err != nil {
		fmt.Println("write-failed")
		return 1
	}
	fmt.Println(id)
	io.Copy(io.Discard, os.Stdin) // until the host goes away
	return 0
}

func playHook() int {
	host, ok := hostlink.HostOf(os.Getpid())
	if !ok {
		fmt.Println("none")
		return 0
	}
	r, ok := hostlink.Find(os.Getenv("HOSTLINK_TEST_DIR"), hostlink.Seeker{Host: host, Conversation: os.Getenv("HOSTLINK_TEST_CONVERSATION")})
	if !ok {
		fmt.Println("none")
		return 0
	}
	fmt.Println(r.SessionID)
	return 0
}

// host is one running host process of the test.
type host struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
}

func startHost(t *testing.T, dir, conversation string) *host {
	c := exec.Command(os.Args[0])
	c.Env = append(os.Environ(), roleVar+"=host", "HOSTLINK_TEST_DIR="+dir, "HOSTLINK_TEST_CONVERSATION="+conversation)
	in, _ := c.StdinPipe()
	out, _ := c.StdoutPipe()
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { in.Close(); c.Wait() })
	return &host{t: t, in: in, out: bufio.NewReader(out)}
}

// do sends one command and returns the host's answer.
func (h *host) do(cmd string) string {
	h.t.Helper()
	fmt.Fprintln(h.in, cmd)
	line, err := h.out.ReadString('\n')
	if err != nil {
		h.t.Fatalf("%s: the host answered nothing (%v)", cmd, err)
	}
	return strings.TrimSpace(line)
}

// TestHooksFindTheirOwnHostsSessionAcrossRealProcesses runs two host
// processes in one folder (two conversations in one repository), each
// with a server that records its link and hooks started through sh -c,
// and checks each hook finds only its own host's session, that a
// restarted server's newer session wins, and that a crashed server's
// record is ignored.
func TestHooksFindTheirOwnHostsSessionAcrossRealProcesses(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("skipping: process identity is read from /proc")
	}
	dir := filepath.Join(t.TempDir(), "collab-sessions")
	a, b := startHost(t, dir, "conv-a"), startHost(t, dir, "conv-b")
	steps := []struct {
		h        *host
		cmd      string
		want     string
		describe string
	}{
		{a, "hook", "found none", "before any server, A's hook finds nothing"},
		{a, "server sA", "started sA", "A's server records its link"},
		{b, "hook", "found none", "B's hook does not see A's session"},
		{b, "server sB", "started sB", "B's server records its link"},
		{a, "hook", "found sA", "A's hook finds A's session"},
		{b, "hook", "found sB", "B's hook finds B's session"},
		{a, "server sA2", "started sA2", "A's server restarts with a new session"},
		{a, "hook", "found sA2", "the newest record of A wins"},
		{a, "crash", "crashed", "A's newest server crashes"},
		{a, "hook", "found sA", "the crashed server's record is ignored"},
		{a, "crash", "crashed", "A's first server crashes too"},
		{a, "hook", "found none", "with no live server A's hook is silent"},
		{b, "hook", "found sB", "B is unaffected"},
	}
	for _, s := range steps {
		if got := s.h.do(s.cmd); got != s.want {
			t.Fatalf("%s: %q, want %q", s.describe, got, s.want)
		}
	}
	fi, err := os.Stat(filepath.Join(dir, "sB"+hostlink.Suffix))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("B's record: %v %v, want a 0600 file", fi, err)
	}
	if di, err := os.Stat(dir); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("the directory: %v %v, want 0700", di, err)
	}
}

// TestAReusedProcessIDNeverMatches takes a live record and changes only
// the start time of its host, as a later process given the same id would
// have: the hook of that process finds nothing.
func TestAReusedProcessIDNeverMatches(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("skipping: process identity is read from /proc")
	}
	dir := filepath.Join(t.TempDir(), "collab-sessions")
	self, ok := hostlink.Identify(os.Getpid())
	if !ok {
		t.Fatal("cannot identify this process")
	}
	host, ok := hostlink.Identify(os.Getppid())
	if !ok {
		t.Fatal("cannot identify the parent")
	}
	if err := hostlink.Write(dir, hostlink.Record{SessionID: "s1", CredentialFile: "/c/s1.json", Host: host, Server: self, Written: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, ok := hostlink.Find(dir, hostlink.Seeker{Host: host}); !ok {
		t.Fatal("the exact host does not match")
	}
	later := host
	later.Start++
	if r, ok := hostlink.Find(dir, hostlink.Seeker{Host: later}); ok {
		t.Fatalf("a process reusing the host's id matched %s", r.SessionID)
	}
	gone := self
	gone.Start++
	if hostlink.Alive(gone) {
		t.Fatal("a server identity with another start time counts as alive")
	}
}

// TestRecordsOutsideAPrivateDirectoryOrFileAreIgnored checks that a
// directory open to others, or a record file that is, yields nothing.
func TestRecordsOutsideAPrivateDirectoryOrFileAreIgnored(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("skipping: process identity is read from /proc")
	}
	dir := filepath.Join(t.TempDir(), "collab-sessions")
	self, _ := hostlink.Identify(os.Getpid())
	host, _ := hostlink.Identify(os.Getppid())
	if err := hostlink.Write(dir, hostlink.Record{SessionID: "s1", CredentialFile: "/c/s1.json", Host: host, Server: self, Written: time.Now()}); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "s1"+hostlink.Suffix)
	for _, tc := range []struct {
		name       string
		path       string
		mode, back os.FileMode
	}{
		{"a record open to others", file, 0o644, 0o600},
		{"a directory open to others", dir, 0o755, 0o700},
	} {
		os.Chmod(tc.path, tc.mode)
		if _, ok := hostlink.Find(dir, hostlink.Seeker{Host: host}); ok {
			t.Errorf("%s matched", tc.name)
		}
		os.Chmod(tc.path, tc.back)
	}
	if _, ok := hostlink.Find(dir, hostlink.Seeker{Host: host}); !ok {
		t.Fatal("the private record no longer matches")
	}
	if err := hostlink.Write(dir, hostlink.Record{SessionID: "../x", CredentialFile: "/c", Host: host, Server: self}); err == nil {
		t.Fatal("a session id naming another directory was written")
	}
}
