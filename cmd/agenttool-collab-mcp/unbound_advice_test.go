package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
)

// sessionOnlyCalls are the tools with no legacy mode, each with arguments
// that pass validation, so that an unbound process refuses them for the
// missing session and nothing else.
var sessionOnlyCalls = map[string]map[string]any{
	"collab_report_append": {"workspace_id": "ws_x", "idempotency_key": "k1", "kind": "observation", "body": "b"},
	"collab_cursor_ack": {"workspace_id": "ws_x", "expected_cursor_version": 1,
		"anchor": map[string]any{"epoch_id": "e", "sequence": 1, "hash": strings.Repeat("a", 64)}},
	"collab_cursor_reset": {"workspace_id": "ws_x", "idempotency_key": "k2", "expected_cursor_version": 1, "reason": "r",
		"target": map[string]any{"epoch_id": "e", "sequence": 1, "hash": strings.Repeat("a", 64)}},
	"collab_task_review": {"workspace_id": "ws_x", "task_id": "t", "idempotency_key": "k3", "expected_version": 1,
		"outcome": "accept", "summary": "s"},
	"collab_task_recover": {"workspace_id": "ws_x", "task_id": "t", "idempotency_key": "k4", "expected_version": 1,
		"recovery_note": "n"},
}

var (
	toolMention  = regexp.MustCompile(`collab_[a-z_]+`)
	toolWithArgs = regexp.MustCompile(`(collab_[a-z_]+) with ([a-z_]+(?: and [a-z_]+)*)`)
	passArg      = regexp.MustCompile(`pass ([a-z_]+)`)
)

// checkAdvice fails when a refusal of tool suggests what the caller
// cannot do: a tool that does not exist, an argument a tool does not take.
func checkAdvice(t *testing.T, tool, message string, props map[string]map[string]bool) {
	t.Helper()
	if !strings.Contains(message, "collab_session_start") {
		t.Errorf("%s: the refusal does not say how to bind a session: %q", tool, message)
	}
	for _, name := range toolMention.FindAllString(message, -1) {
		if props[name] == nil {
			t.Errorf("%s: the refusal names %s, which is not a tool: %q", tool, name, message)
		}
	}
	for _, m := range toolWithArgs.FindAllStringSubmatch(message, -1) {
		for _, arg := range strings.Split(m[2], " and ") {
			if props[m[1]] != nil && !props[m[1]][arg] {
				t.Errorf("%s: the refusal suggests %s with %s, which it does not take: %q", tool, m[1], arg, message)
			}
		}
	}
	for _, m := range passArg.FindAllStringSubmatch(message, -1) {
		if !props[tool][m[1]] {
			t.Errorf("%s: the refusal says pass %s, which %s does not take: %q", tool, m[1], tool, message)
		}
	}
}

// listedProperties returns each listed tool's argument names.
func listedProperties(t *testing.T, result any) map[string]map[string]bool {
	t.Helper()
	props := map[string]map[string]bool{}
	tools, _ := get(result, "tools").([]any)
	for _, tool := range tools {
		names := map[string]bool{}
		p, _ := get(tool, "inputSchema.properties").(map[string]any)
		for name := range p {
			names[name] = true
		}
		props[str(tool, "name")] = names
	}
	if len(props) < 30 {
		t.Fatalf("tools/list gave %d tools", len(props))
	}
	return props
}

func TestEverySessionOnlyRefusalAdvisesWhatTheCallerCanDo(t *testing.T) {
	s := newSandbox(t)
	lines := []string{initializeLine, `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`}
	var names []string
	for name, args := range sessionOnlyCalls {
		names = append(names, name)
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": name, "method": "tools/call",
			"params": map[string]any{"name": name, "arguments": args}})
		lines = append(lines, string(line))
	}
	byID, _, _ := exchange(t, []string{os.Args[0]}, s.env(), lines...)
	props := listedProperties(t, byID[`"list"`]["result"])

	h, sid, _ := httpSession(t, s, "2025-06-18")
	for _, name := range names {
		if props[name]["actor"] {
			t.Errorf("%s takes actor: it is not session-only", name)
		}
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": name, "arguments": sessionOnlyCalls[name]}})
		status, _, body := rawPost(t, h.url, sid, "2025-06-18", string(line))
		if status != http.StatusOK {
			t.Fatalf("HTTP %s: %d %s", name, status, body)
		}
		for transport, answer := range map[string]map[string]any{"stdio": byID[fmt.Sprintf("%q", name)], "HTTP": decodeNumbers(t, body)} {
			if code := str(answer, "result.structuredContent.error"); code != "session_not_bound" {
				t.Errorf("%s over %s: refused with %q, want session_not_bound: %v", name, transport, code, answer)
				continue
			}
			checkAdvice(t, name, str(answer, "result.structuredContent.message"), props)
		}
	}
}
