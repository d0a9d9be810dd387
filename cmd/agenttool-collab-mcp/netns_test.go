package main

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"math/big"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// testNet is a private IPv4 network made for one test, standing in for a
// team's LAN: a bridge in this process's network namespace holding the
// gateway address (where the team's PostgreSQL listens), and one network
// namespace per machine, joined to the bridge by a veth pair, with the
// machine's own address. Every name carries an id drawn for this run, so
// tests of parallel packages never collide, and everything is removed when
// the test ends, whether it passed or not.
type testNet struct {
	t      testing.TB
	id     string
	prefix string // the /24's first three octets and a dot
	bridge string
	spaces []string // the machines' network namespaces
}

// requireNetns skips the test (fails it under CI=true, which runs as
// root) unless it can make network namespaces: root and the ip command.
func requireNetns(t testing.TB) {
	t.Helper()
	why := ""
	if os.Geteuid() != 0 {
		why = "not root"
	} else if _, err := exec.LookPath("ip"); err != nil {
		why = "no ip command (iproute2)"
	}
	if why == "" {
		return
	}
	msg := "this test runs each machine in a network namespace of its own and needs root and iproute2: " + why
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// newTestNet makes the bridge and machines namespaces on a /24 of
// 100.64.0.0/10 (shared address space, rarely routed on a developer's
// machine) that no route or address of this machine touches.
func newTestNet(t testing.TB, machines int) *testNet {
	t.Helper()
	requireNetns(t)
	var b [3]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	n := &testNet{t: t, id: hex.EncodeToString(b[:])}
	n.prefix = n.freePrefix()
	n.bridge = "clb" + n.id
	n.ip("link", "add", n.bridge, "type", "bridge")
	t.Cleanup(func() { n.quietly("link", "del", n.bridge) })
	n.ip("addr", "add", n.Gateway()+"/24", "dev", n.bridge)
	n.ip("link", "set", n.bridge, "up")
	for i := 0; i < machines; i++ {
		n.addMachine(i)
	}
	return n
}

// addMachine makes machine i's namespace, with loopback up and its end of
// a veth pair whose other end is a port of the bridge.
func (n *testNet) addMachine(i int) {
	ns := fmt.Sprintf("collab-%s-%d", n.id, i)
	outside, inside := fmt.Sprintf("clv%s%d", n.id, i), fmt.Sprintf("clp%s%d", n.id, i)
	n.ip("netns", "add", ns)
	n.t.Cleanup(func() { n.quietly("netns", "del", ns) })
	n.spaces = append(n.spaces, ns)
	n.ip("link", "add", outside, "type", "veth", "peer", "name", inside)
	// Deleting the namespace deletes the pair; this covers a failure
	// before the inner end moved there.
	n.t.Cleanup(func() { n.quietly("link", "del", outside) })
	n.ip("link", "set", outside, "master", n.bridge, "up")
	n.ip("link", "set", inside, "netns", ns)
	n.ip("-n", ns, "link", "set", "lo", "up")
	n.ip("-n", ns, "addr", "add", n.Addr(i)+"/24", "dev", inside)
	n.ip("-n", ns, "link", "set", inside, "up")
}

// Gateway is the bridge's address, reachable from every machine.
func (n *testNet) Gateway() string { return n.prefix + "1" }

// Addr is machine i's address.
func (n *testNet) Addr(i int) string { return fmt.Sprintf("%s%d", n.prefix, 11+i) }

// CIDR is the network's prefix in CIDR form.
func (n *testNet) CIDR() string { return n.prefix + "0/24" }

// Command returns argv run inside machine i's network namespace.
func (n *testNet) Command(i int, argv ...string) *exec.Cmd {
	return exec.Command("ip", append([]string{"netns", "exec", n.spaces[i]}, argv...)...)
}

// freePrefix draws a /24 of 100.64.0.0/10 that appears in none of this
// machine's IPv4 routes and addresses.
func (n *testNet) freePrefix() string {
	n.t.Helper()
	taken := n.ip("-4", "route", "show", "table", "all") + n.ip("-4", "addr", "show")
	for try := 0; try < 64; try++ {
		r, err := rand.Int(rand.Reader, big.NewInt(64*256))
		if err != nil {
			n.t.Fatal(err)
		}
		v := int(r.Int64())
		prefix := fmt.Sprintf("100.%d.%d.", 64+v/256, v%256)
		if !strings.Contains(taken, prefix) && !strings.Contains(taken, "100.64.0.0/10") {
			return prefix
		}
	}
	n.t.Fatal("no free /24 in 100.64.0.0/10 for the test network")
	return ""
}

// ip runs the ip command, failing the test with its output on error.
func (n *testNet) ip(args ...string) string {
	n.t.Helper()
	out, err := exec.Command("ip", args...).CombinedOutput()
	if err != nil {
		n.t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// quietly runs the ip command for a cleanup, where what is already gone
// is no failure.
func (n *testNet) quietly(args ...string) {
	exec.Command("ip", args...).Run()
}
