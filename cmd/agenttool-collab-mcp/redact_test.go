package main

import (
	"strings"
	"testing"

	"github.com/agenttool/collab/core/wake"
	"github.com/agenttool/collab/hosts/mcp"
)

// A report that carries another session's token and an HTTP bearer token
// reaches its recipient's channel, peek and watch with neither: both are
// redacted, whoever they belong to.
func TestNoticesCarryNoTokenOfAnySessionOrClient(t *testing.T) {
	w := newChannelPair(t, channelOn)
	repo := w.s.repo("other", map[string]string{"b.txt": "b\n"})
	_, _, carolFile := startSession(t, w.s, repo, "carol")
	carol := readCredential(t, carolFile)["session_token"].(string)
	bearer := w.s.token("ci")
	_, watch := startWatch(t, w.s, w.bobFile)
	secrets := map[string]string{"carol's session token": carol, "an HTTP bearer token": bearer}
	for what, secret := range secrets {
		ok(t, w.alice, "collab_report_append", map[string]any{"workspace_id": w.ws, "idempotency_key": "r-" + secret[:8],
			"kind": "observation", "body": "found " + secret + " in a log", "to_session_id": w.bobID})
		content, _ := w.nextChannel(t, w.bob)
		if strings.Contains(content, secret) || !strings.Contains(content, "found "+wake.Redacted+" in a log") {
			t.Errorf("the channel notice for a report holding %s: %q", what, content)
		}
		l := <-watch
		if strings.Contains(l.text, secret) || !strings.Contains(l.text, wake.Redacted) {
			t.Errorf("watch's line for a report holding %s: %q", what, l.text)
		}
	}
	for _, args := range [][]string{{"--session-file", w.bobFile}, {"--session-file", w.bobFile, "--json"}} {
		_, out, _ := peekAs(t, w.s, args...)
		for what, secret := range secrets {
			if strings.Contains(out, secret) || strings.Count(out, "redacted") != 2 {
				t.Errorf("peek %v shows %s or fewer than two redactions:\n%s", args, what, out)
			}
		}
	}
	if extra := w.bob.Notifications(mcp.ChannelMethod); len(extra) != 0 {
		t.Fatalf("more notifications than reports: %v", extra)
	}
}
