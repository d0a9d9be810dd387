package gitstate

import (
	"slices"
	"testing"
)

func TestHardenedEnvDropsGitVariablesButThePersonsOwn(t *testing.T) {
	in := []string{"PATH=/bin", "HOME=/h", "GIT_DIR=/other/.git", "GIT_WORK_TREE=/other", "GIT_INDEX_FILE=/x",
		"GIT_EXTERNAL_DIFF=/evil", "GIT_PAGER=/evil", "GIT_EXEC_PATH=/evil", "GIT_CONFIG_PARAMETERS='core.fsmonitor'='/evil'",
		"GIT_CONFIG_COUNT=1", "GIT_TRACE=/tmp/t", "git_dir=/lower", "GIT_OPTIONAL_LOCKS=1",
		"GIT_CONFIG_GLOBAL=/g", "GIT_CONFIG_SYSTEM=/s", "GIT_CONFIG_NOSYSTEM=1", "GIT_CEILING_DIRECTORIES=/c",
		"GIT_DISCOVERY_ACROSS_FILESYSTEM=1", "GITHUB_TOKEN_NAME=kept"}
	want := []string{"PATH=/bin", "HOME=/h", "GIT_CONFIG_GLOBAL=/g", "GIT_CONFIG_SYSTEM=/s", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES=/c", "GIT_DISCOVERY_ACROSS_FILESYSTEM=1", "GITHUB_TOKEN_NAME=kept",
		"GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_NO_LAZY_FETCH=1"}
	if got := hardenedEnv(in); !slices.Equal(got, want) {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

func TestFilterNamesAreTheDriversConfigurationDefines(t *testing.T) {
	cases := []struct {
		name string
		out  string
		want []string
		ok   bool
	}{
		{"none (git config exits 1)", "", nil, true},
		{"one driver, several keys", "filter.lfs.clean\x00filter.lfs.smudge\x00filter.lfs.required\x00", []string{"lfs"}, true},
		{"dotted name", "filter.a.b.clean\x00filter.c.process\x00", []string{"a.b", "c"}, true},
		{"case of the name kept", "filter.Evil.clean\x00filter.evil.clean\x00", []string{"Evil", "evil"}, true},
		{"key without a name", "filter.clean\x00", nil, true},
		{"name with = cannot be overridden", "filter.a=b.clean\x00", nil, false},
		{"not NUL-terminated", "filter.lfs.clean", nil, false},
		{"another section", "diff.x.textconv\x00", nil, false},
	}
	for _, c := range cases {
		got, ok := filterNames([]byte(c.out))
		if ok != c.ok || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q %v, want %q %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

func TestTaggedListingSplitsIntoTheTwoContractListings(t *testing.T) {
	cases := []struct {
		name             string
		out              string
		index, untracked string
		ok               bool
	}{
		{"empty", "", "", "", true},
		{"both", "? u\x00? d/v\x00H 100644 aa 0\ta\x00S 100644 bb 0\tb\x00M 100644 cc 1\tc\x00",
			"100644 aa 0\ta\x00100644 bb 0\tb\x00100644 cc 1\tc\x00", "u\x00d/v\x00", true},
		{"untracked name that looks like an entry", "? H 100644 aa 0\tx\x00", "", "H 100644 aa 0\tx\x00", true},
		{"unknown tag", "K x\x00", "", "", false},
		{"no tag", "x\x00", "", "", false},
		{"not NUL-terminated", "? u", "", "", false},
	}
	for _, c := range cases {
		index, untracked, ok := splitTagged([]byte(c.out))
		if ok != c.ok || ok && (string(index.out) != c.index || string(untracked.out) != c.untracked) {
			t.Errorf("%s: got %q %q %v", c.name, index.out, untracked.out, ok)
		}
	}
}
