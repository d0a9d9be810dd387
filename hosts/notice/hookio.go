package notice

import (
	"encoding/json"
	"io"
	"os"
)

// hookInput is the part of a host hook's stdin JSON that peek reads.
// Claude Code and Codex both send hook_event_name; on Stop they send
// stop_hook_active when the agent is already continuing because of a
// Stop hook.
// Both also send session_id, the host's conversation id, which picks the
// conversation's own session (core/hostlink).
type hookInput struct {
	Event          string `json:"hook_event_name"`
	StopHookActive bool   `json:"stop_hook_active"`
	SessionID      string `json:"session_id"`
}

// readHookInput reads the hook's JSON from stdin; no stdin, a terminal, an
// empty or malformed input gives the zero value.
func readHookInput(stdin io.Reader) hookInput {
	var in hookInput
	if stdin == nil {
		return in
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
			return in
		}
	}
	data, _ := io.ReadAll(io.LimitReader(stdin, 1<<20))
	json.Unmarshal(data, &in)
	return in
}

// writeHookOutput prints what a Claude Code or Codex hook returns to give
// the model one line: additional context for SessionStart, UserPromptSubmit
// and PostToolUse; for Stop, a request to continue with the line as the
// reason (Stop has no additional context).
func writeHookOutput(w io.Writer, event, line string) {
	var out map[string]any
	switch event {
	case "Stop":
		out = map[string]any{"decision": "block", "reason": line}
	case "":
		out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "UserPromptSubmit", "additionalContext": line}}
	default:
		out = map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event, "additionalContext": line}}
	}
	json.NewEncoder(w).Encode(out)
}
