package httpserve_test

import (
	"testing"

	"github.com/agenttool/collab/hosts/httpserve"
)

func TestExposureRefusesUnsafeBinds(t *testing.T) {
	cases := []struct {
		name    string
		e       httpserve.Exposure
		refused bool
		warns   bool
	}{
		{"loopback with tokens", httpserve.Exposure{Addr: "127.0.0.1:7777"}, false, false},
		{"loopback without tokens", httpserve.Exposure{Addr: "127.0.0.1:7777", NoAuthOnLoopback: true}, false, false},
		{"ipv6 loopback", httpserve.Exposure{Addr: "[::1]:7777", NoAuthOnLoopback: true}, false, false},
		{"localhost", httpserve.Exposure{Addr: "localhost:0"}, false, false},
		{"all interfaces plain", httpserve.Exposure{Addr: "0.0.0.0:7777"}, true, false},
		{"empty host is all interfaces", httpserve.Exposure{Addr: ":7777"}, true, false},
		{"lan plain", httpserve.Exposure{Addr: "10.0.0.5:7777"}, true, false},
		{"lan tls", httpserve.Exposure{Addr: "10.0.0.5:7777", TLS: true}, false, false},
		{"lan plain on a private network", httpserve.Exposure{Addr: "10.0.0.5:7777", InsecurePlaintext: true}, false, true},
		{"no auth off loopback", httpserve.Exposure{Addr: "0.0.0.0:7777", TLS: true, NoAuthOnLoopback: true}, true, false},
		{"no port", httpserve.Exposure{Addr: "127.0.0.1"}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			warning, err := c.e.Check()
			if (err != nil) != c.refused {
				t.Fatalf("refused = %v (%v), want %v", err != nil, err, c.refused)
			}
			if (warning != "") != c.warns {
				t.Fatalf("warning %q, want one: %v", warning, c.warns)
			}
		})
	}
}
