package mcp

import (
	"strings"
	"testing"
)

// TestInstructionsStateEveryReferenceRule lists each rule the reference's
// initialize instructions give the model, and the words of ours that state
// it. Ours are worded independently; each rule must still be there.
func TestInstructionsStateEveryReferenceRule(t *testing.T) {
	rules := []struct {
		rule    string
		phrases []string
	}{
		{"it is a local coordination journal for independent agent sessions", []string{"local coordination journal", "independent coding-agent sessions"}},
		{"start a session once per process, then poll collab_next", []string{"collab_session_start once per MCP process", "collab_next"}},
		{"a restart resumes from the private credential file; the token never reaches the model", []string{"resumes that session from a private credential file", "bearer token never reaches the model"}},
		{"acknowledgement means processed, not agreed", []string{"acknowledgement means processed, never agreed"}},
		{"share structured reports with evidence, confidence, limits and explicit authority", []string{"structured reports", "evidence, confidence and limits", "explicit authority scope"}},
		{"claim before editing overlapping scopes; renew long work", []string{"Claim a task before editing", "renew the lease for long work"}},
		{"a lease is advisory: not ownership, a lock or authority", []string{"advisory coordination lease", "not ownership", "not a file lock", "not authority"}},
		{"edit completion is reported and pending until a distinct session accepts", []string{"stays pending until a different session reviews it"}},
		{"challenges are append-only disagreement", []string{"appended, never edited away", "disagreement"}},
		{"expired session leases need explicit recovery", []string{"expired session lease is taken over only through explicit recovery"}},
		{"git checkpoints are local evidence, not attribution or atomic locks", []string{"Git checkpoints are local evidence", "not attribution", "not an atomic lock across Git and SQLite"}},
		{"store only concise facts: no credentials, prompts, transcripts, chain-of-thought, sensitive source", []string{"short coordination facts only", "credentials", "prompts, transcripts, chain-of-thought", "sensitive source"}},
		{"cursor rollback needs host permission and an audited reset before writes", []string{"host's permission", "audited collab_cursor_reset before session writes resume"}},
		{"the host owns spawning, wakeups, waiting and stopping", []string{"The host, not this server, owns starting sessions, waking them, waiting and stopping"}},
		{"the presence tools are a separate plane of routing hints that never authenticate", []string{"collab_session_join/list/heartbeat/leave", "unauthenticated presence plane", "routing hints"}},
		{"anchor status is read-only, local, never contacts a chain or spends, and confers no truth or authority", []string{"collab_anchor_status only reads", "local Zerone witness sidecar", "never contacts a chain, broadcasts or spends funds", "makes nothing true or authoritative"}},
	}
	for _, r := range rules {
		for _, p := range r.phrases {
			if !strings.Contains(Instructions, p) {
				t.Errorf("rule %q: instructions lack %q", r.rule, p)
			}
		}
	}
}
