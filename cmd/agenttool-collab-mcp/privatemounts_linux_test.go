package main

import (
	"os"
	"os/exec"
)

// privateMounts reports whether this test may give a server a private
// mount namespace (root with unshare), where a directory can be made
// read-only for that server alone.
func privateMounts() bool {
	if os.Geteuid() != 0 {
		return false
	}
	for _, tool := range []string{"unshare", "mount"} {
		if _, err := exec.LookPath(tool); err != nil {
			return false
		}
	}
	return exec.Command("unshare", "-m", "--propagation", "private", "true").Run() == nil
}
