package hostguard

import (
	"fmt"
	"net"
	"strings"
)

// IsLoopbackName reports whether host (a host without port; IPv6 may be in
// brackets) is "localhost" or a loopback address (127.0.0.0/8, ::1). Case
// is ignored, and so is one trailing dot (the absolute form of a name).
// Names that merely resolve to loopback, such as app.localhost or a hosts
// file entry, are not loopback names: who controls them is not known.
func IsLoopbackName(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return loopbackCanonical(strings.TrimSuffix(strings.ToLower(host), "."))
}

// loopbackCanonical is IsLoopbackName for a name already in lower case,
// without brackets and without its trailing dot.
func loopbackCanonical(name string) bool {
	if name == "localhost" {
		return true
	}
	ip := net.ParseIP(name)
	return ip != nil && ip.IsLoopback()
}

// LoopbackAddr reports whether a listen address (host:port) binds only
// loopback interfaces. An empty host, as in ":8484", binds every
// interface and so is not loopback.
func LoopbackAddr(addr string) (bool, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false, fmt.Errorf("listen address %q: %w (want host:port, e.g. 127.0.0.1:8484)", addr, err)
	}
	return IsLoopbackName(host), nil
}
