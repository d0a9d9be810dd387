package gitstate

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Observer is InspectAndCapture with a memory of this machine's Git: the
// path of its system configuration file, which Git cannot be asked for
// without a process of its own. Knowing it, a capture reads the
// configuration files itself, and when none of them can configure a
// filter driver (noFilterDrivers) it skips the git process that lists the
// drivers, one of the six a capture starts; the digests are the same. The
// path is learnt by one git process at the first capture and learnt again
// when the git executable or GIT_CONFIG_SYSTEM changes. An Observer is
// safe for concurrent use; its zero value is ready.
type Observer struct {
	mu     sync.Mutex
	system learntSystem
}

// learntSystem is where the git executable key names reads its system
// configuration: file, or "" when Git would not say; the zero value has
// learnt nothing.
type learntSystem struct {
	key  string
	file string
}

// InspectAndCapture is the package's InspectAndCapture, starting one git
// process fewer when no configuration file can configure a filter driver.
func (o *Observer) InspectAndCapture(ctx context.Context, root, explicitKey string) (Identity, Checkpoint, error) {
	return inspectAndCapture(ctx, root, explicitKey, Limits{}, o)
}

// noFilterDrivers reports whether none of the configuration files Git
// reads for dirs can configure a filter driver; false when it cannot tell.
func (o *Observer) noFilterDrivers(ctx context.Context, r runner, dirs repoDirs) bool {
	if o == nil || dirs.commonDir == "" || dirs.gitDir == "" {
		return false
	}
	system, ok := o.systemFile(ctx, r)
	if !ok {
		return false
	}
	return noFilterDrivers(configFiles(system, envLookup(r.env), dirs))
}

// systemFile is the system configuration file of the git r runs, learnt
// once per executable and GIT_CONFIG_SYSTEM value.
func (o *Observer) systemFile(ctx context.Context, r runner) (string, bool) {
	key, ok := gitExecutableKey(envLookup(r.env)("GIT_CONFIG_SYSTEM"))
	if !ok {
		return "", false
	}
	o.mu.Lock()
	learnt := o.system
	o.mu.Unlock()
	if learnt.key == key {
		return learnt.file, learnt.file != ""
	}
	file, ok := learnSystemFile(ctx, r)
	if ctx.Err() != nil {
		return "", false // not learnt: ask again next time
	}
	if !ok {
		file = ""
	}
	o.mu.Lock()
	o.system = learntSystem{key: key, file: file}
	o.mu.Unlock()
	return file, file != ""
}

// gitExecutableKey identifies the git executable exec would start and the
// system file it was pointed at: its path, size and modification time.
func gitExecutableKey(systemOverride string) (string, bool) {
	path, err := exec.LookPath("git")
	if err != nil {
		return "", false
	}
	info, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	return strings.Join([]string{path, info.ModTime().UTC().Format(time.RFC3339Nano),
		strconv.FormatInt(info.Size(), 10), systemOverride}, "\x00"), true
}

// learnSystemFile asks git which file it reads as its system
// configuration: the origin of the file's first entry, or, when the file
// does not exist, the file named in Git's complaint (read in the C locale
// so that its wording is known). An empty system file names nothing, and
// nothing is learnt.
func learnSystemFile(ctx context.Context, r runner) (string, bool) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", append(hardeningArgs(), "config", "--system", "--show-origin", "-z", "--list")...)
	cmd.Dir = os.TempDir()
	cmd.Env = append(append([]string(nil), r.env...), "LC_ALL=C", "LANGUAGE=")
	stdout := &cappedBuffer{limit: r.limit, onOverflow: cancel}
	stderr := &cappedBuffer{limit: 64 << 10, onOverflow: cancel}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = waitDelay
	if err := cmd.Run(); err == nil {
		return systemFileOfListing(stdout.data)
	}
	if stdout.overflowed || stderr.overflowed {
		return "", false
	}
	return systemFileOfComplaint(string(stderr.data))
}

// systemFileOfListing reads the file of the first entry of
// "git config --show-origin -z --list".
func systemFileOfListing(out []byte) (string, bool) {
	origin, _, found := bytes.Cut(out, []byte{0})
	file, isFile := strings.CutPrefix(string(origin), "file:")
	if !found || !isFile || !filepath.IsAbs(file) {
		return "", false
	}
	return file, true
}

// systemFileOfComplaint reads the file Git names when it cannot read its
// system configuration: "fatal: unable to read config file 'F': …".
func systemFileOfComplaint(stderr string) (string, bool) {
	const lead = "unable to read config file '"
	_, rest, found := strings.Cut(stderr, lead)
	if !found {
		return "", false
	}
	file, _, found := strings.Cut(rest, "': ")
	if !found || !filepath.IsAbs(file) || strings.ContainsAny(file, "\n") {
		return "", false
	}
	return file, true
}

// envLookup looks a variable up in env, where a later entry wins as it
// does for exec.
func envLookup(env []string) func(string) string {
	return func(name string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == name {
				return v
			}
		}
		return ""
	}
}
