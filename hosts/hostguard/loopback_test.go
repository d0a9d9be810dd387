package hostguard_test

import (
	"testing"

	"github.com/agenttool/collab/hosts/hostguard"
)

func TestIsLoopbackName(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "LOCALHOST": true, "localhost.": true, "127.0.0.1": true, "127.255.0.9": true,
		"::1": true, "[::1]": true, "::ffff:127.0.0.1": true,
		"": false, "0.0.0.0": false, "::": false, "10.0.0.5": false, "app.localhost": false, "localhost.example": false,
		"evil.example": false, "2130706433": false, "localhost..": false,
	} {
		if got := hostguard.IsLoopbackName(host); got != want {
			t.Errorf("IsLoopbackName(%q) = %v, want %v", host, got, want)
		}
	}
}

// A listen address is loopback only when its host is; an empty host binds
// every interface.
func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{"127.0.0.1:1": true, "[::1]:1": true, "localhost:1": true, "127.9.9.9:1": true,
		"0.0.0.0:1": false, ":1": false, "[::]:1": false, "192.168.1.2:1": false, "example.com:1": false} {
		if got, err := hostguard.LoopbackAddr(addr); err != nil || got != want {
			t.Errorf("LoopbackAddr(%q) = %v, %v; want %v", addr, got, err, want)
		}
	}
	if _, err := hostguard.LoopbackAddr("nowhere"); err == nil {
		t.Error("LoopbackAddr accepted an address without a port")
	}
}
