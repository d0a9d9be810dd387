package liveness

import (
	"strconv"

	"github.com/agenttool/collab/core/store"
)

// HostName names the host that holds a session as a person reads it: the
// client's own name and version as it sent them (never guessed from
// anything else), then how it holds the session: "claude-code 2.1.0 (MCP
// stdio, pid 4242)", "codex-mcp-client 0.40.0 (MCP over HTTP, token
// alice-laptop)", "collab 1.2.0 (a person at the terminal)".
func HostName(h store.SessionHost) string {
	how := string(h.Kind)
	switch h.Kind {
	case store.HostStdio:
		how = "MCP stdio"
		if h.PID > 0 {
			how += ", pid " + strconv.FormatInt(h.PID, 10)
		}
	case store.HostHTTP:
		how = "MCP over HTTP"
		if h.Principal != "" {
			how += ", token " + h.Principal
		}
	case store.HostPersonCLI:
		how = "a person at the terminal"
	case store.HostPersonWeb:
		how = "a person on the web view"
	}
	name := h.Client
	if name != "" && h.ClientVersion != "" {
		name += " " + h.ClientVersion
	}
	if name == "" {
		return how
	}
	return name + " (" + how + ")"
}
