package codex

// inherited lists the variables Codex passes to every stdio server on
// Unix-like systems, whatever the manifest says (checked with Codex 0.171:
// AGENTOOL_COLLAB_DB and XDG_DATA_HOME do not arrive unless listed).
var inherited = []string{"HOME", "LOGNAME", "PATH", "SHELL", "USER", "LANG", "LC_ALL", "TERM", "TMPDIR", "TZ"}

// Forward returns the environment Codex gives the server: the inherited
// allowlist and the variables the entry names in env_vars, each when set
// in the user's environment, with the entry's literal env on top.
func Forward(user map[string]string, s Server) map[string]string {
	out := map[string]string{}
	for _, names := range [][]string{inherited, s.EnvVars} {
		for _, k := range names {
			if v, ok := user[k]; ok {
				out[k] = v
			}
		}
	}
	for k, v := range s.Env {
		out[k] = v
	}
	return out
}
