package claude

import "github.com/agenttool/collab/hosts/plugin"

// HookGroup is one entry of a hook event's list in the plugin manifest:
// hooks run for every matcher when Matcher is empty.
type HookGroup struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []Hook `json:"hooks"`
}

// Hook is one command hook. Timeout is in seconds.
type Hook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

// Experimental holds the manifest's gated extras.
type Experimental struct {
	Monitors []Monitor `json:"monitors,omitempty"`
}

// Monitor is a background process whose stdout lines Claude Code delivers
// to the model, when the host enables monitors (a server-side flag,
// interactive sessions only); otherwise it is never started.
type Monitor struct {
	Name        string `json:"name"`
	Command     string `json:"command"`
	Description string `json:"description"`
}

// binary is the launcher as a hook or monitor command sees it.
func binary() string { return `"${` + RootVariable + `}/` + plugin.Launcher + `"` }

// WakeEvents are the hook events that run peek: at session start, before
// each prompt, and when the agent is about to stop (where a notice asks it
// to go on once; stop_hook_active keeps it from looping).
var WakeEvents = []string{"SessionStart", "UserPromptSubmit", "Stop"}

// WakeHooks returns the hooks that put a one-line notice of what concerns
// the session into the model's context. They find the session the same
// conversation's server bound through its host link (core/hostlink), with
// nothing set; AGENTOOL_COLLAB_SESSION_FILE, when set, names it instead.
// They are silent when there is none, when nothing is new, and on any
// error.
func WakeHooks() map[string][]HookGroup {
	out := map[string][]HookGroup{}
	for _, e := range WakeEvents {
		out[e] = []HookGroup{{Hooks: []Hook{{Type: "command", Command: binary() + " peek --hook claude", Timeout: 10}}}}
	}
	return out
}

// WakeMonitors returns the monitor that runs watch for the session: it
// waits until the conversation's server links one, then follows it.
func WakeMonitors() *Experimental {
	return &Experimental{Monitors: []Monitor{{
		Name:        "collab-watch",
		Command:     binary() + " watch",
		Description: "New coordination events for this collab session: handoffs offered to it, reports addressed to it, reviews of its work",
	}}}
}
