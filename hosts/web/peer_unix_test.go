//go:build unix

package web_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/agenttool/collab/hosts/web"
)

// SameUser admits a connection this process's user opened and refuses
// one another local user opened (that half runs where the test may start
// a process as another user, i.e. as root).
func TestSameUserTellsLocalUsersApart(t *testing.T) {
	if !web.CanTellPeers() {
		t.Skip("this system has no kernel socket table to read (/proc/net/tcp)")
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := web.SameUser(r); err != nil {
			http.Error(w, err.Error(), http.StatusForbidden)
			return
		}
		w.Write([]byte("same user"))
	}))
	defer ts.Close()
	resp, body := get(t, ts.Client(), ts.URL)
	if resp.StatusCode != http.StatusOK || body != "same user" {
		t.Fatalf("this user's own connection: %d %q", resp.StatusCode, body)
	}
	curl, err := exec.LookPath("curl")
	if os.Getuid() != 0 || err != nil {
		t.Skip("the other-user half needs root and curl, to connect as another user")
	}
	cmd := exec.Command(curl, "-s", "-w", " %{http_code}", ts.URL)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("curl as uid 65534: %v", err)
	}
	if !strings.HasSuffix(string(out), " 403") || !strings.Contains(string(out), "another local user (uid 65534)") {
		t.Fatalf("a connection of uid 65534: %q, want 403 naming another user", out)
	}
}
