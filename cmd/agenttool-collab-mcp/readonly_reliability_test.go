//go:build linux

package main

import (
	"os"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// startWithPrivateMount starts a server in its own mount namespace where
// dir is bind-mounted onto itself, read-only if readOnly.
func startWithPrivateMount(s *sandbox, dir string, readOnly bool, extra ...string) (*mcptest.Client, error) {
	script := `mount --bind "$1" "$1" && exec "$2"`
	if readOnly {
		script = `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2"`
	}
	argv := []string{"unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh", dir, os.Args[0]}
	return mcptest.Start(argv, s.env(extra...))
}
