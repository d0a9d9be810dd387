package hostguard_test

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/hostguard"
)

// request is a GET with the given Host header as net/http hands it to a
// handler: the server's end of the connection recorded in its context
// (port 0 = not recorded).
func request(host string, localPort int, secure bool, origins ...string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/live", nil)
	r.Host = host
	if localPort != 0 {
		local := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: localPort}
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
	}
	if secure {
		r.TLS = &tls.ConnectionState{}
	}
	for _, o := range origins {
		r.Header.Add("Origin", o)
	}
	return r
}

func mustPolicy(t *testing.T, addr string, hosts, origins []string) hostguard.Policy {
	t.Helper()
	p, err := hostguard.New(addr, hosts, origins)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// A server on loopback answers only to the loopback names on the port the
// request arrived on, however the name is spelled; every other name, and
// every malformed Host, is refused.
func TestHostsAdmittedOnLoopback(t *testing.T) {
	loop := mustPolicy(t, "127.0.0.1:8484", nil, nil)
	listed := mustPolicy(t, "127.0.0.1:8484", []string{"collab.example.internal", "tunnel.example:9000", "LOCALHOST:9000"}, nil)
	cases := []struct {
		name   string
		policy hostguard.Policy
		host   string
		local  int
		secure bool
		admit  bool
	}{
		{"ipv4 loopback", loop, "127.0.0.1:8484", 8484, false, true},
		{"localhost", loop, "localhost:8484", 8484, false, true},
		{"uppercase localhost", loop, "LOCALHOST:8484", 8484, false, true},
		{"trailing dot", loop, "LocalHost.:8484", 8484, false, true},
		{"trailing dot on an address", loop, "127.0.0.1.:8484", 8484, false, true},
		{"anywhere in 127/8", loop, "127.9.9.9:8484", 8484, false, true},
		{"ipv6 loopback", loop, "[::1]:8484", 8484, false, true},
		{"ipv6 loopback written out", loop, "[0:0:0:0:0:0:0:1]:8484", 8484, false, true},
		{"port with a leading zero", loop, "localhost:08484", 8484, false, true},
		{"no port on the default port", loop, "localhost", 80, false, true},
		{"no port on the tls default port", loop, "localhost", 443, true, true},
		{"port mismatch", loop, "127.0.0.1:9999", 8484, false, false},
		{"ipv6 port mismatch", loop, "[::1]:9999", 8484, false, false},
		{"no port off the default port", loop, "127.0.0.1", 8484, false, false},
		{"connection port unknown", loop, "127.0.0.1:8484", 0, false, false},
		{"foreign name", loop, "evil.example:8484", 8484, false, false},
		{"foreign name without port", loop, "evil.example", 8484, false, false},
		{"foreign name with trailing dot", loop, "evil.example.:8484", 8484, false, false},
		{"uppercase foreign name", loop, "EVIL.EXAMPLE:8484", 8484, false, false},
		{"localhost as a label", loop, "localhost.evil.example:8484", 8484, false, false},
		{"loopback address as a label", loop, "127.0.0.1.evil.example:8484", 8484, false, false},
		{"subdomain of localhost", loop, "app.localhost:8484", 8484, false, false},
		{"decimal address", loop, "2130706433:8484", 8484, false, false},
		{"every interface", loop, "0.0.0.0:8484", 8484, false, false},
		{"private address", loop, "192.168.1.2:8484", 8484, false, false},
		{"bare ipv6", loop, "::1:8484", 8484, false, false},
		{"name in brackets", loop, "[localhost]:8484", 8484, false, false},
		{"ipv4 in brackets", loop, "[127.0.0.1]:8484", 8484, false, false},
		{"empty port", loop, "localhost:", 8484, false, false},
		{"two trailing dots", loop, "localhost..:8484", 8484, false, false},
		{"empty host", loop, "", 8484, false, false},
		{"listed name on any port", listed, "collab.example.internal:1234", 8484, false, true},
		{"listed name, other case, trailing dot", listed, "Collab.Example.Internal.", 8484, false, true},
		{"listed name and port", listed, "tunnel.example:9000", 8484, false, true},
		{"listed name, other port", listed, "tunnel.example:9001", 8484, false, false},
		{"listed name, port implied", listed, "tunnel.example", 8484, false, false},
		{"listed loopback tunnel port", listed, "localhost:9000", 8484, false, true},
		{"loopback still admitted with a list", listed, "127.0.0.1:8484", 8484, false, true},
		{"foreign name with a list", listed, "evil.example:8484", 8484, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.policy.Check(request(c.host, c.local, c.secure))
			if c.admit && err != nil {
				t.Fatalf("Host %q refused: %v", c.host, err)
			}
			if !c.admit && !errors.Is(err, hostguard.ErrHost) {
				t.Fatalf("Host %q: %v, want ErrHost", c.host, err)
			}
		})
	}
}

// Off loopback (where every request needs a token) any Host is admitted
// until names are listed; then only those and the loopback names are.
func TestHostsAdmittedOffLoopback(t *testing.T) {
	open := mustPolicy(t, "0.0.0.0:8484", nil, nil)
	listed := mustPolicy(t, "0.0.0.0:8484", []string{"collab.example.internal"}, nil)
	cases := []struct {
		name   string
		policy hostguard.Policy
		host   string
		admit  bool
	}{
		{"any name without a list", open, "whatever.example:8484", true},
		{"listed name", listed, "collab.example.internal:8484", true},
		{"unlisted name", listed, "whatever.example:8484", false},
		{"loopback name", listed, "localhost:8484", true},
		{"malformed host without a list", open, "::1:8484", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.policy.Check(request(c.host, 8484, false))
			if (err == nil) != c.admit {
				t.Fatalf("Host %q: %v, want admitted %v", c.host, err, c.admit)
			}
		})
	}
}

// An Origin header, when a browser sends one, must name the request's own
// host or a listed origin.
func TestOriginsAdmitted(t *testing.T) {
	loop := mustPolicy(t, "127.0.0.1:8484", nil, []string{"https://app.example"})
	proxied := mustPolicy(t, "0.0.0.0:8484", []string{"collab.example"}, nil)
	cases := []struct {
		name    string
		policy  hostguard.Policy
		host    string
		origins []string
		admit   bool
	}{
		{"no origin", loop, "127.0.0.1:8484", nil, true},
		{"own origin", loop, "127.0.0.1:8484", []string{"http://127.0.0.1:8484"}, true},
		{"own origin, other spelling", loop, "localhost:8484", []string{"HTTP://LocalHost.:8484/"}, true},
		{"listed origin", loop, "127.0.0.1:8484", []string{"https://APP.example:443"}, true},
		{"another loopback name is another origin", loop, "127.0.0.1:8484", []string{"http://localhost:8484"}, false},
		{"another port is another origin", loop, "127.0.0.1:8484", []string{"http://127.0.0.1:9999"}, false},
		{"foreign site", loop, "127.0.0.1:8484", []string{"http://evil.example"}, false},
		{"foreign site on this port", loop, "127.0.0.1:8484", []string{"http://evil.example:8484"}, false},
		{"opaque origin", loop, "127.0.0.1:8484", []string{"null"}, false},
		{"origin with a path", loop, "127.0.0.1:8484", []string{"http://127.0.0.1:8484/x"}, false},
		{"listed origin on another port", loop, "127.0.0.1:8484", []string{"https://app.example:8443"}, false},
		{"two origins", loop, "127.0.0.1:8484", []string{"http://127.0.0.1:8484", "http://evil.example"}, false},
		{"empty origin", loop, "127.0.0.1:8484", []string{""}, false},
		{"behind a tls proxy", proxied, "collab.example", []string{"https://collab.example"}, true},
		{"behind a tls proxy, other port", proxied, "collab.example", []string{"https://collab.example:9999"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.policy.Check(request(c.host, 8484, false, c.origins...))
			if c.admit && err != nil {
				t.Fatalf("Origin %q refused: %v", c.origins, err)
			}
			if !c.admit && !errors.Is(err, hostguard.ErrOrigin) {
				t.Fatalf("Origin %q: %v, want ErrOrigin", c.origins, err)
			}
		})
	}
}

// A malformed --allow-host, --allow-origin or listen address is refused
// when the server starts, naming the flag.
func TestNewRefusesMalformedEntries(t *testing.T) {
	cases := []struct {
		name           string
		addr           string
		hosts, origins []string
		want           string
	}{
		{"url as host", "127.0.0.1:0", []string{"http://collab.example"}, nil, "--allow-host"},
		{"empty host", "127.0.0.1:0", []string{""}, nil, "--allow-host"},
		{"empty port", "127.0.0.1:0", []string{"collab.example:"}, nil, "--allow-host"},
		{"bare ipv6", "127.0.0.1:0", []string{"fe80::1"}, nil, "--allow-host"},
		{"null origin", "127.0.0.1:0", nil, []string{"null"}, "--allow-origin"},
		{"origin without scheme", "127.0.0.1:0", nil, []string{"collab.example"}, "--allow-origin"},
		{"origin with another scheme", "127.0.0.1:0", nil, []string{"ftp://collab.example"}, "--allow-origin"},
		{"address without port", "127.0.0.1", nil, nil, "listen address"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := hostguard.New(c.addr, c.hosts, c.origins)
			if err == nil || !contains(err.Error(), c.want) {
				t.Fatalf("New: %v, want an error naming %s", err, c.want)
			}
		})
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
