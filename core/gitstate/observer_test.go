package gitstate

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestConfigFilesThatMayConfigureFilters reads configuration files the
// way a capture decides whether to ask Git for the filter drivers: only a
// file that cannot define one lets it skip the question.
func TestConfigFilesThatMayConfigureFilters(t *testing.T) {
	dir := tempDir(t)
	cases := []struct {
		name, text string
		none       bool
	}{
		{"ordinary settings", "[core]\n\tbare = false\n[user]\n\tname = Someone\n", true},
		{"empty file", "", true},
		{"a filter section", "[filter \"lfs\"]\n\tclean = git-lfs clean -- %f\n", false},
		{"an upper-case legacy section", "[FILTER.lfs]\n\tclean = x\n", false},
		{"a dotted key", "[core]\nfilter.x.clean = y\n", false},
		{"an include", "[include]\n\tpath = other\n", false},
		{"a conditional include", "[includeIf \"gitdir:~/w/\"]\n\tpath = other\n", false},
		{"the word in a value", "[alias]\n\tf = log --filter=blob:none\n", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := filepath.Join(dir, c.name)
			if err := os.WriteFile(f, []byte(c.text), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := noFilterDrivers([]string{f, filepath.Join(dir, "missing")}); got != c.none {
				t.Fatalf("noFilterDrivers = %v, want %v", got, c.none)
			}
		})
	}
	t.Run("a directory where a file should be", func(t *testing.T) {
		if noFilterDrivers([]string{dir}) {
			t.Fatal("an unreadable file must count as one that may configure filters")
		}
	})
	t.Run("a relative path", func(t *testing.T) {
		if noFilterDrivers([]string{"config"}) {
			t.Fatal("a relative path must count as one that may configure filters")
		}
	})
}

// TestConfigFilesCoverEveryPlaceGitReads checks the list against the
// places Git reads configuration from for a repository.
func TestConfigFilesCoverEveryPlaceGitReads(t *testing.T) {
	env := map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x", "GIT_CONFIG_GLOBAL": "/g", "GIT_CONFIG_SYSTEM": "/s",
		"PROGRAMDATA": "/p"}
	got := configFiles("/etc/gitconfig", func(k string) string { return env[k] },
		repoDirs{commonDir: "/r/.git", gitDir: "/r/.git/worktrees/w"})
	for _, want := range []string{"/etc/gitconfig", "/s", "/p/Git/config", "/g", "/x/git/config", "/h/.gitconfig", "/h/.config/git/config",
		"/r/.git/config", "/r/.git/config.worktree", "/r/.git/worktrees/w/config.worktree"} {
		found := false
		for _, f := range got {
			found = found || f == filepath.FromSlash(want)
		}
		if !found {
			t.Errorf("%s is not among %v", want, got)
		}
	}
}

// TestLearningTheSystemFile reads the file out of what Git prints.
func TestLearningTheSystemFile(t *testing.T) {
	if f, ok := systemFileOfListing([]byte("file:/etc/gitconfig\x00core.x\ny\x00")); !ok || f != "/etc/gitconfig" {
		t.Errorf("listing: %q %v", f, ok)
	}
	for _, bad := range []string{"", "file:relative\x00k\nv\x00", "command line:\x00k\nv\x00"} {
		if f, ok := systemFileOfListing([]byte(bad)); ok {
			t.Errorf("listing %q names %q", bad, f)
		}
	}
	const complaint = "fatal: unable to read config file '/opt/git/etc/gitconfig': No such file or directory\n"
	if f, ok := systemFileOfComplaint(complaint); !ok || f != "/opt/git/etc/gitconfig" {
		t.Errorf("complaint: %q %v", f, ok)
	}
	if f, ok := systemFileOfComplaint("fatal: something else\n"); ok {
		t.Errorf("an unrelated complaint names %q", f)
	}
}

// TestObserverLearnsTheSystemFileGitReads asks the git on PATH, pointed
// at a file of the test's, where it reads its system configuration.
func TestObserverLearnsTheSystemFileGitReads(t *testing.T) {
	dir := tempDir(t)
	for _, c := range []struct {
		name string
		text *string
	}{{"an existing file", ptr("[core]\n\tx = 1\n")}, {"a missing file", nil}} {
		t.Run(c.name, func(t *testing.T) {
			file := filepath.Join(dir, c.name)
			if c.text != nil {
				if err := os.WriteFile(file, []byte(*c.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("GIT_CONFIG_SYSTEM", file)
			var o Observer
			got, ok := o.systemFile(context.Background(), newRunner(Limits{}.withDefaults()))
			if !ok || got != file {
				t.Fatalf("learnt %q (%v), want %q", got, ok, file)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestObserverCapturesWhatThePackageCaptures holds an Observer's
// checkpoints, which skip the filter listing when nothing can configure a
// driver, to the package function's, on a clean and a dirty repository
// and on one whose configuration names a filter.
func TestObserverCapturesWhatThePackageCaptures(t *testing.T) {
	var o Observer
	ctx := context.Background()
	for _, c := range []struct {
		name string
		make func(t *testing.T) *repo
	}{
		{"committed", func(t *testing.T) *repo { return smallRepo(t) }},
		{"dirty", func(t *testing.T) *repo {
			r := smallRepo(t)
			r.write("README.md", "changed\n", 0o644)
			r.write("untracked.txt", "new\n", 0o644)
			return r
		}},
		{"a filter configured", func(t *testing.T) *repo {
			r := smallRepo(t)
			r.git("config", "filter.tidy.clean", "cat")
			return r
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := c.make(t)
			wantID, want, err := InspectAndCapture(ctx, r.dir, "")
			if err != nil {
				t.Fatal(err)
			}
			gotID, got, err := o.InspectAndCapture(ctx, r.dir, "")
			if err != nil {
				t.Fatal(err)
			}
			want.CapturedAt, got.CapturedAt = "", ""
			if !reflect.DeepEqual(gotID, wantID) || !reflect.DeepEqual(got.Map(), want.Map()) {
				t.Fatalf("observer:\n%v\npackage:\n%v", got.Map(), want.Map())
			}
			if got.Digests == nil || got.Digests.StateSHA256 == nil {
				t.Fatalf("the checkpoint must be complete: %v", got.Map())
			}
		})
	}
}
