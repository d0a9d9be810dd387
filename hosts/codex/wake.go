package codex

import "github.com/agenttool/collab/hosts/plugin"

// HooksPath is where the rendered Codex hooks snippet lives in the
// repository: a user copies (or merges) it into ~/.codex/hooks.json or a
// project's .codex/hooks.json, then trusts it in Codex's hook review.
const HooksPath = "integrations/codex/hooks.json"

// WakeEvents are the Codex hook events that run peek. Codex 0.171 reads
// hookSpecificOutput.additionalContext from the first two, and on Stop a
// {"decision":"block","reason":…} makes the agent go on once with the
// reason as its prompt (it then sends stop_hook_active, and peek stays
// quiet): the only way a notice reaches a `codex exec` run that is
// already under way.
var WakeEvents = []string{"SessionStart", "UserPromptSubmit", "Stop"}

// HooksFile is the shape of a Codex hooks.json.
type HooksFile struct {
	Hooks map[string][]HookGroup `json:"hooks"`
}

// HookGroup is one entry of an event's list.
type HookGroup struct {
	Hooks []Hook `json:"hooks"`
}

// Hook is one command hook. Timeout is in seconds.
type Hook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// WakeHooks returns the hooks.json that runs `peek --hook codex` with the
// given program (the launcher on PATH when empty). Like the Claude Code
// hooks it finds the session the same Codex process's server bound
// (through its host link; AGENTOOL_COLLAB_SESSION_FILE overrides) and is
// silent with no session, nothing new, or any error.
func WakeHooks(program string) HooksFile {
	if program == "" {
		program = plugin.BinaryName
	}
	out := HooksFile{Hooks: map[string][]HookGroup{}}
	for _, e := range WakeEvents {
		out.Hooks[e] = []HookGroup{{Hooks: []Hook{{Type: "command", Command: program + " peek --hook codex", Timeout: 10}}}}
	}
	return out
}
