package hostguard

import (
	"errors"
	"fmt"
	"net"
	"net/http"
)

// The two refusals. Their text is what a refused client reads (with status
// 403); it never repeats a header value.
var (
	ErrHost   = errors.New("host not allowed: this server answers to localhost, 127.0.0.1 or [::1] on its own port, and to names listed with --allow-host")
	ErrOrigin = errors.New("origin not allowed: a page from another site may not use this server")
)

// Policy says which Host names and browser origins a server answers to.
// The zero Policy admits the loopback names on the port the request
// arrived on, and an Origin naming the request's own host; nothing else.
type Policy struct {
	hosts   []target
	origins []origin
	anyHost bool
}

// New returns the policy of a server listening on addr. hosts are the
// other names it answers to, each "name" (any port) or "name:port";
// origins are browser origins ("https://name[:port]") admitted besides the
// request's own. Off loopback with no hosts listed every Host is admitted:
// the caller guarantees that there every request needs a token, which a
// rebinding page cannot have. A malformed entry is an error.
func New(addr string, hosts, origins []string) (Policy, error) {
	loopback, err := LoopbackAddr(addr)
	if err != nil {
		return Policy{}, err
	}
	p := Policy{anyHost: !loopback && len(hosts) == 0}
	for _, h := range hosts {
		t, ok := parseTarget(h)
		if !ok {
			return Policy{}, fmt.Errorf("--allow-host %q: want a name or name:port, such as collab.example.internal or localhost:9000", h)
		}
		p.hosts = append(p.hosts, t)
	}
	for _, o := range origins {
		parsed, ok := parseOrigin(o)
		if !ok {
			return Policy{}, fmt.Errorf("--allow-origin %q: want scheme://name[:port], such as https://collab.example.internal", o)
		}
		p.origins = append(p.origins, parsed)
	}
	return p, nil
}

// Check returns nil when r is addressed to this server by a name p admits
// and carries no foreign Origin; otherwise ErrHost or ErrOrigin, which a
// face answers with 403 before reading anything else of the request.
func (p Policy) Check(r *http.Request) error {
	host, ok := parseTarget(r.Host)
	if !ok || !p.hostAdmitted(host, localPort(r), defaultPort(r.TLS != nil)) {
		return ErrHost
	}
	if values := r.Header.Values("Origin"); len(values) > 0 {
		if len(values) > 1 || !p.originAdmitted(values[0], host) {
			return ErrOrigin
		}
	}
	return nil
}

// hostAdmitted: a loopback name on the port the connection arrived on, a
// listed name (on its listed port, if it has one), or anything with
// anyHost.
func (p Policy) hostAdmitted(host target, local, def string) bool {
	if loopbackCanonical(host.name) && local != "" && host.portOr(def) == local {
		return true
	}
	for _, h := range p.hosts {
		if h.name == host.name && (h.port == "" || h.port == host.portOr(def)) {
			return true
		}
	}
	return p.anyHost
}

// localPort is the port of the server's end of r's connection, "" when
// net/http did not record it (then no loopback name is admitted).
func localPort(r *http.Request) string {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return ""
	}
	_, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return ""
	}
	return canonicalPort(port)
}

func defaultPort(tls bool) string {
	if tls {
		return "443"
	}
	return "80"
}
