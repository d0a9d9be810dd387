package hostguard

import (
	"net"
	"strconv"
	"strings"
)

// target is a Host header value, or an allowed-host entry, in canonical
// form: the name in lower case without its trailing dot (an IPv6 address
// without brackets), and the port as a decimal number ("" when absent).
type target struct {
	name string
	port string
}

// parseTarget reads "name", "name:port", "[v6]" or "[v6]:port". Anything
// else, including an empty port, a bare IPv6 address or brackets around
// something that is not IPv6, is not a target.
func parseTarget(s string) (target, bool) {
	if s == "" {
		return target{}, false
	}
	name, port := s, ""
	if h, p, err := net.SplitHostPort(s); err == nil {
		name, port = h, p
		if port = canonicalPort(port); port == "" {
			return target{}, false
		}
	} else if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		name = s[1 : len(s)-1]
	} else if strings.ContainsAny(s, ":[]") {
		return target{}, false
	}
	if strings.HasPrefix(s, "[") && (!strings.Contains(name, ":") || net.ParseIP(name) == nil) {
		return target{}, false
	}
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if name == "" || strings.ContainsAny(name, "/@ ") {
		return target{}, false
	}
	return target{name: name, port: port}, true
}

// canonicalPort returns port as a plain decimal in 1..65535, or "".
func canonicalPort(port string) string {
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || strings.HasPrefix(port, "+") {
		return ""
	}
	return strconv.Itoa(n)
}

// portOr returns t's port, or def when the value named none.
func (t target) portOr(def string) string {
	if t.port == "" {
		return def
	}
	return t.port
}
