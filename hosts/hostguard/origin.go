package hostguard

import (
	"net/url"
	"strings"
)

// origin is a browser origin in canonical form, its port always explicit.
type origin struct {
	scheme string
	target
}

// parseOrigin reads "scheme://name[:port]" (a trailing "/" is tolerated).
// "null", and anything with a path, query or credentials, is not an origin
// this package admits.
func parseOrigin(s string) (origin, bool) {
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return origin{}, false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return origin{}, false
	}
	t, ok := parseTarget(u.Host)
	if !ok {
		return origin{}, false
	}
	t.port = t.portOr(defaultPort(scheme == "https"))
	return origin{scheme: scheme, target: t}, true
}

// originAdmitted: a listed origin, or one naming the request's own host
// (a Host without port taking the default port of the origin's scheme, so
// a server behind a TLS proxy still recognises its own pages).
func (p Policy) originAdmitted(value string, host target) bool {
	o, ok := parseOrigin(value)
	if !ok {
		return false
	}
	for _, a := range p.origins {
		if a == o {
			return true
		}
	}
	own := target{name: host.name, port: host.portOr(defaultPort(o.scheme == "https"))}
	return own == o.target
}
