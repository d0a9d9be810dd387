package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// hookAs runs `peek --hook claude` the way Claude Code runs a hook: through
// `sh -c` from this process (the host of every server the sandbox starts),
// with the hook's JSON on stdin naming the conversation, and no session
// variable set. It returns stdout and stderr.
func hookAs(t *testing.T, s *sandbox, conversation, event string) (string, string) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", `"$0" peek --hook claude`, os.Args[0])
	cmd.Env = s.env()
	cmd.Stdin = strings.NewReader(`{"hook_event_name":"` + event + `","session_id":"` + conversation + `","cwd":"/x"}`)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("the hook failed (it must always exit 0): %v\n%s", err, errb.String())
	}
	return out.String(), errb.String()
}

// TestHooksFindTheirConversationsSessionWithNothingSet starts, under one
// host (this process), two servers for two conversations in one repository
// plus a third session that reports to each, with no session variable set
// anywhere. Each conversation's hook must announce only the report
// addressed to its own session; a conversation without a server, and every
// conversation after its server died or ended its session, get nothing;
// no output names the credential file or a token.
func TestHooksFindTheirConversationsSessionWithNothingSet(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	start := func(conversation, actor string) (*mcptest.Client, map[string]any) {
		c := s.start(claude.ConversationVariable + "=" + conversation)
		return c, ok(t, c, "collab_session_start", map[string]any{"root_path": repo, "actor": actor})
	}
	alice, a := start("conv-alice", "alice")
	bobC, b := start("conv-bob", "bob")
	carolC, c := start("conv-carol", "carol")
	ws := str(a, "workspace.id")
	report := func(to map[string]any, body string) {
		ok(t, alice, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "r-" + body,
			"kind": "observation", "body": body, "to_session_id": str(to, "session.id")})
	}
	report(b, "for-bob-1")
	report(b, "for-bob-2")
	report(c, "for-carol")

	secrets := []string{}
	for _, r := range []map[string]any{a, b, c} {
		secrets = append(secrets, str(r, "session_file_name"))
		cred := readCredential(t, filepath.Join(filepath.Dir(s.db), "collab-sessions", str(r, "session_file_name")))
		secrets = append(secrets, cred["session_token"].(string))
	}
	check := func(name, conversation, event, want string) {
		t.Helper()
		out, errOut := hookAs(t, s, conversation, event)
		for _, secret := range secrets {
			if strings.Contains(out+errOut, secret) {
				t.Fatalf("%s: the hook's output names a credential file or token", name)
			}
		}
		if want == "" {
			if out != "" || errOut != "" {
				t.Fatalf("%s: want silence, got stdout %q stderr %q", name, out, errOut)
			}
			return
		}
		if !strings.Contains(out, want) {
			t.Fatalf("%s: stdout %q lacks %q (stderr %q)", name, out, want, errOut)
		}
	}
	check("bob's conversation", "conv-bob", "UserPromptSubmit", "2 reports addressed to you")
	check("carol's conversation", "conv-carol", "UserPromptSubmit", "1 report addressed to you")
	check("bob's Stop hook", "conv-bob", "Stop", `"decision":"block"`)
	check("alice's conversation (nothing addressed to her)", "conv-alice", "UserPromptSubmit", "")
	check("a conversation with no server", "conv-nobody", "UserPromptSubmit", "")

	ok(t, carolC, "collab_session_end", map[string]any{})
	check("carol after her session ended", "conv-carol", "UserPromptSubmit", "")
	bobC.Kill()
	check("bob after his server was killed", "conv-bob", "UserPromptSubmit", "")
	check("alice is unaffected", "conv-alice", "SessionStart", "")
}

// TestMonitorWaitsForItsConversationsSessionAndFollowsIt starts `watch`
// as Claude Code starts a monitor (through sh -c, with the conversation id
// in its environment and no session variable) before any session exists.
// It must wait, pick up the session that conversation's server binds and
// print a report addressed to it, and never one addressed to a session of
// another conversation in the same repository.
func TestMonitorWaitsForItsConversationsSessionAndFollowsIt(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	alice := s.start(claude.ConversationVariable + "=conv-alice")
	a := ok(t, alice, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	ws := str(a, "workspace.id")

	cmd := exec.Command("/bin/sh", "-c", `"$0" watch --interval 50ms`, os.Args[0])
	cmd.Env = s.env(claude.ConversationVariable + "=conv-bob")
	stdout, _ := cmd.StdoutPipe()
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	watching := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "watching from") {
				watching <- sc.Text()
			}
		}
	}()

	other := s.start(claude.ConversationVariable + "=conv-carol")
	c := ok(t, other, "collab_session_start", map[string]any{"root_path": repo, "actor": "carol"})
	bob := s.start(claude.ConversationVariable + "=conv-bob")
	b := ok(t, bob, "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	select {
	case <-watching:
	case <-time.After(wakeDeadline):
		t.Fatal("the monitor never found bob's session")
	}
	for i, to := range []map[string]any{c, b} {
		ok(t, alice, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": fmt.Sprint("r", i),
			"kind": "observation", "body": "note for " + str(to, "session.actor"), "to_session_id": str(to, "session.id")})
	}
	select {
	case l := <-lines:
		if !strings.Contains(l, "note for bob") {
			t.Fatalf("the monitor printed %q, want bob's report only", l)
		}
	case <-time.After(wakeDeadline):
		out, errOut := hookAs(t, s, "conv-bob", "UserPromptSubmit")
		t.Fatalf("the monitor printed nothing for bob's report; bob's hook: %q %q; carol's report %v", out, errOut, str(c, "session.id"))
	}
	ok(t, bob, "collab_report_list", map[string]any{"workspace_id": ws}) // a round trip: carol's report is long committed
	select {
	case l := <-lines:
		t.Fatalf("the monitor printed a second line %q", l)
	case <-time.After(300 * time.Millisecond):
	}
}
