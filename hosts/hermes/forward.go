// Package hermes holds what is particular to Hermes Agent: editing the
// mcp_servers entry of its config.yaml without disturbing the rest of the
// file, installing the Hermes skill, and the environment Hermes gives the
// server.
package hermes

import (
	"regexp"
	"strings"

	"github.com/agenttool/collab/hosts/hostnames"
)

// Host is this host's naming scheme, and the value its server entry gives
// plugin.HostVariable.
const Host = hostnames.Hermes

// safe lists the variables Hermes passes from its own environment to every
// stdio server (read from its source; it cannot be installed here). Every
// XDG_* variable passes too.
var safe = []string{"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TERM", "SHELL", "TMPDIR"}

// Forward returns the environment Hermes gives the server: the safe set
// and every XDG_* variable from the user's environment, plus the entry's
// env with ${VAR} references expanded from the user's environment.
func Forward(user map[string]string, e Entry) map[string]string {
	out := map[string]string{}
	for _, k := range safe {
		if v, ok := user[k]; ok {
			out[k] = v
		}
	}
	for k, v := range user {
		if strings.HasPrefix(k, "XDG_") {
			out[k] = v
		}
	}
	for _, v := range e.Env {
		out[v.Name] = expand(v.Value, user)
	}
	return out
}

var reference = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expand replaces ${NAME} with NAME's value (empty when unset), the one
// interpolation Hermes applies to config values.
func expand(s string, env map[string]string) string {
	return reference.ReplaceAllStringFunc(s, func(m string) string {
		return env[m[2:len(m)-1]]
	})
}
