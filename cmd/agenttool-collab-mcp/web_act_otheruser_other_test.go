//go:build !linux

package main

import "testing"

// checkRefusesAnotherLocalUser needs the kernel's socket table, which
// only Linux has; elsewhere the web command warns instead (see
// hosts/web/peer.go).
func checkRefusesAnotherLocalUser(t *testing.T, _ *actWorld) {
	t.Skip("only Linux says which local user opened a connection")
}
