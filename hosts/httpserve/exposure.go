package httpserve

import (
	"errors"
	"fmt"
	"net"

	"github.com/agenttool/collab/hosts/hostguard"
)

// Exposure is what the operator asked for when starting the server.
type Exposure struct {
	// Addr is the listen address (host:port).
	Addr string
	// TLS is set when a certificate and key were given.
	TLS bool
	// NoAuthOnLoopback admits requests without a token; only on loopback.
	NoAuthOnLoopback bool
	// InsecurePlaintext accepts plain HTTP on a non-loopback address.
	InsecurePlaintext bool
}

// Loopback reports whether Addr binds only loopback interfaces.
func (e Exposure) Loopback() bool {
	loopback, err := hostguard.LoopbackAddr(e.Addr)
	return err == nil && loopback
}

// Check refuses an exposure that would be unsafe, and returns a warning to
// print for one that is allowed but deserves it:
//   - no tokens is allowed only on a loopback address;
//   - a non-loopback address needs TLS, or --insecure-plaintext (a
//     private network such as a VPN), which is warned about.
func (e Exposure) Check() (warning string, err error) {
	if _, _, err := net.SplitHostPort(e.Addr); err != nil {
		return "", fmt.Errorf("listen address %q: %w (want host:port, e.g. 127.0.0.1:7777)", e.Addr, err)
	}
	if e.Loopback() {
		return "", nil
	}
	if e.NoAuthOnLoopback {
		return "", errors.New("--no-auth-on-loopback applies to loopback addresses only; " + e.Addr + " is reachable from other machines, so every client needs a token")
	}
	if !e.TLS && !e.InsecurePlaintext {
		return "", errors.New("refusing to serve " + e.Addr + " without TLS: give --tls-cert and --tls-key, tunnel over ssh to a loopback address, or pass --insecure-plaintext if the network is private (VPN/overlay)")
	}
	if !e.TLS {
		return "serving plain HTTP on " + e.Addr + ": bearer tokens cross the network unencrypted; use this only on a private network", nil
	}
	return "", nil
}
