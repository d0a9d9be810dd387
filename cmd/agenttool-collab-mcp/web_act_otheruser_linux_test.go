//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// checkRefusesAnotherLocalUser posts to the loopback view as another OS
// user (uid 65534): the view has no access token on loopback, so it asks
// the kernel who opened the connection, and refuses before the form is
// read. It needs root and curl to connect as another user.
func checkRefusesAnotherLocalUser(t *testing.T, w *actWorld) {
	curl, err := exec.LookPath("curl")
	if os.Getuid() != 0 || err != nil {
		t.Skip("needs root and curl to connect as another local user")
	}
	before := w.events(t)
	cmd := exec.Command(curl, "-s", "-w", " %{http_code}", "-H", "Sec-Fetch-Site: same-origin",
		"--data", "kind=observation&body=from+another+user", w.act+"/post")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("curl as uid 65534: %v", err)
	}
	if !strings.HasSuffix(string(out), " 403") || !strings.Contains(string(out), "another local user") {
		t.Fatalf("a post by uid 65534: %.400q, want 403 naming another local user", out)
	}
	if after := w.events(t); after != before {
		t.Fatalf("another user's post wrote %d events", after-before)
	}
}
