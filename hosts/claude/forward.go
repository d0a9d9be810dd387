package claude

import (
	"maps"
	"strings"
)

// Forward returns the environment Claude Code gives the server: the whole
// environment Claude Code itself runs in, plus the plugin root, with the
// entry's env values (after ${CLAUDE_PLUGIN_ROOT} expansion) on top.
func Forward(user map[string]string, root string, s Server) map[string]string {
	out := maps.Clone(user)
	if out == nil {
		out = map[string]string{}
	}
	out[RootVariable] = root
	for k, v := range s.Env {
		out[k] = strings.ReplaceAll(v, "${"+RootVariable+"}", root)
	}
	return out
}
