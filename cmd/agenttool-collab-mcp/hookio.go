package main

import (
	"encoding/json"
	"io"
	"os"
)

// hookEventName reads the host's hook input (a JSON object on stdin) and
// returns its hook_event_name, or "" when stdin is a terminal, empty or
// not such an object.
func hookEventName(stdin *os.File) string {
	if fi, err := stdin.Stat(); err != nil || fi.Mode()&os.ModeCharDevice != 0 {
		return ""
	}
	var in struct {
		Event string `json:"hook_event_name"`
	}
	data, _ := io.ReadAll(io.LimitReader(stdin, 1<<20))
	if json.Unmarshal(data, &in) != nil {
		return ""
	}
	return in.Event
}

// writeHookContext prints the JSON a Claude Code or Codex hook returns to
// add one line of context for the model. Both hosts read
// hookSpecificOutput.additionalContext for the events peek is wired to.
func writeHookContext(w io.Writer, host, event, line string) {
	if event == "" {
		event = "UserPromptSubmit"
	}
	out := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": event, "additionalContext": line}}
	json.NewEncoder(w).Encode(out)
}
