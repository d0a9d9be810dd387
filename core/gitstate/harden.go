package gitstate

import (
	"os"
	"strings"
)

// A repository is treated as hostile: its configuration and attributes, and
// any Git variable inherited from whoever started this process, must not
// make Git run a program or look at another repository. Every git process
// this package starts gets the switches below; the file "docs/safety.md"
// ("A repository") lists what each one stops and what it costs.

// hardeningArgs come before the subcommand of every call. Command-line
// configuration wins over every configuration file, and Git hands it on to
// the git processes it starts itself (for example in submodules).
func hardeningArgs() []string {
	return []string{
		"--no-pager",
		"-c", "core.fsmonitor=false", // no fsmonitor hook or daemon
		"-c", "core.useBuiltinFSMonitor=false", // its name in Git 2.35
		"-c", "core.hooksPath=" + os.DevNull, // no hook (post-index-change, …)
		"-c", "diff.external=", // no external diff (also --no-ext-diff)
		// "git diff" refreshes the index (taking index.lock) after skipping
		// stat-only changes, whatever GIT_OPTIONAL_LOCKS says; without the
		// refresh it still prints nothing for them (see docs/safety.md).
		"-c", "diff.autoRefreshIndex=false",
		"-c", "protocol.allow=never", // no lazy fetch of a partial clone's objects
		"-c", "protocol.ext.allow=never",
		"-c", "protocol.file.allow=never",
		"-c", "protocol.ssh.allow=never",
		"-c", "protocol.git.allow=never",
		"-c", "protocol.http.allow=never",
		"-c", "protocol.https.allow=never",
	}
}

// keptVariables are the Git variables passed on from this process's
// environment: they choose the person's own configuration files and where
// repository discovery stops, and can neither run a program nor name
// another repository. Every other GIT_* variable is dropped (GIT_DIR or
// GIT_INDEX_FILE left by a hook, GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_EXEC_PATH,
// GIT_CONFIG_PARAMETERS, GIT_TRACE*, …).
var keptVariables = map[string]bool{
	"GIT_CONFIG_GLOBAL":               true,
	"GIT_CONFIG_SYSTEM":               true,
	"GIT_CONFIG_NOSYSTEM":             true,
	"GIT_CEILING_DIRECTORIES":         true,
	"GIT_DISCOVERY_ACROSS_FILESYSTEM": true,
}

// addedVariables are set on every call: no optional lock (so "git status"
// never takes index.lock to refresh the index), no prompt, no lazy fetch.
var addedVariables = []string{"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1"}

// hardenedEnv is environ without the Git variables that are not kept, plus
// the added ones.
func hardenedEnv(environ []string) []string {
	env := make([]string, 0, len(environ)+len(addedVariables))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToUpper(name), "GIT_") && !keptVariables[name] {
			continue
		}
		env = append(env, kv)
	}
	return append(env, addedVariables...)
}

// filterOverrides switch off the filter drivers with the given names: no
// clean, smudge or long-running process command, and not required (so a
// file that names one is read as it is, instead of failing the call).
// Drivers exist only where configuration defines them, so the names that
// configuration lists (see filterNames) are all there are.
func filterOverrides(names []string) []string {
	args := make([]string, 0, 8*len(names))
	for _, n := range names {
		args = append(args,
			"-c", "filter."+n+".clean=",
			"-c", "filter."+n+".smudge=",
			"-c", "filter."+n+".process=",
			"-c", "filter."+n+".required=false")
	}
	return args
}

// filterNamesArgs list the names of every configuration key in the filter
// section, NUL-terminated, as Git itself resolves configuration (includes,
// conditional includes, worktree configuration).
func filterNamesArgs() []string {
	return []string{"config", "-z", "--name-only", "--get-regexp", `^filter\.`}
}

// filterNames reads the output of filterNamesArgs: the distinct driver
// names of keys "filter.<name>.<key>", in order. A key without a name
// (filter.<key>) defines no driver. ok is false when the output is
// malformed or a name holds "=", which "-c name=value" cannot express (the
// caller then runs nothing that could start a filter).
func filterNames(out []byte) (names []string, ok bool) {
	if len(out) == 0 {
		return nil, true
	}
	if out[len(out)-1] != 0 {
		return nil, false
	}
	seen := map[string]bool{}
	for key := range strings.SplitSeq(string(out[:len(out)-1]), "\x00") {
		rest, found := strings.CutPrefix(key, "filter.")
		if !found {
			return nil, false
		}
		i := strings.LastIndexByte(rest, '.')
		if i <= 0 {
			continue
		}
		n := rest[:i]
		if strings.Contains(n, "=") {
			return nil, false
		}
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	return names, true
}

// HardeningArgs returns the switches every git process of this package
// gets (before the subcommand), for other read-only Git callers that must
// not run a repository's programs either. Filters still need
// filterOverrides when a call may read a worktree file's content.
func HardeningArgs() []string { return hardeningArgs() }
