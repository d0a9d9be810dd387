package store_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

var workspacesForNames = []store.Workspace{
	{ID: "ws_aaaa00000000000000000001", Name: "proj", RootPath: "/src/proj"},
	{ID: "ws_aaaa00000000000000000002", Name: "Tools", RootPath: "/src/tools"},
	{ID: "ws_bbbb00000000000000000003", Name: "site", RootPath: "/src/site"},
	{ID: "ws_cccc00000000000000000004", Name: "site", RootPath: "/srv/site"},
	{ID: "ws_dddd00000000000000000005", Name: "inner", RootPath: "/src/proj/vendor/inner"},
}

var worktreesForNames = []store.Worktree{
	{WorkspaceID: "ws_aaaa00000000000000000001", RootPath: "/src/proj"},
	{WorkspaceID: "ws_aaaa00000000000000000001", RootPath: "/wt/proj-feature"},
}

// TestChooseWorkspaceByIdNameOrAnyPathInside names workspaces every way a
// person might and checks the one chosen or the candidates refused.
func TestChooseWorkspaceByIdNameOrAnyPathInside(t *testing.T) {
	cases := []struct {
		name, typed, dir string
		want             string // chosen id; empty for a refusal
		candidates       int    // for a refusal
		ambiguous        bool
	}{
		{"an exact id", "ws_bbbb00000000000000000003", "", "ws_bbbb00000000000000000003", 0, false},
		{"a unique id prefix", "ws_dddd", "", "ws_dddd00000000000000000005", 0, false},
		{"an id prefix without ws_", "cccc", "", "ws_cccc00000000000000000004", 0, false},
		{"a prefix two ids share", "aaaa", "", "", 2, true},
		{"a name", "proj", "", "ws_aaaa00000000000000000001", 0, false},
		{"a name in another case", "tools", "", "ws_aaaa00000000000000000002", 0, false},
		{"a name two workspaces bear", "site", "", "", 2, true},
		{"the root itself", "./proj", "/src/proj", "ws_aaaa00000000000000000001", 0, false},
		{"a directory deep inside", "./sub/dir", "/src/proj/sub/dir", "ws_aaaa00000000000000000001", 0, false},
		{"a directory of another worktree", ".", "/wt/proj-feature/docs", "ws_aaaa00000000000000000001", 0, false},
		{"the deepest root wins", ".", "/src/proj/vendor/inner/x", "ws_dddd00000000000000000005", 0, false},
		{"a sibling sharing a root's prefix is outside it", ".", "/src/project", "", 5, false},
		{"an unknown name", "nope", "", "", 5, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := store.ChooseWorkspace(workspacesForNames, worktreesForNames, tc.typed, tc.dir)
			if tc.want != "" {
				if err != nil || got.ID != tc.want {
					t.Fatalf("ChooseWorkspace(%q, %q) = %s, %v; want %s", tc.typed, tc.dir, got.ID, err, tc.want)
				}
				return
			}
			var un *store.UnresolvedWorkspace
			if !errors.As(err, &un) || un.Ambiguous != tc.ambiguous || len(un.Candidates) != tc.candidates {
				t.Fatalf("ChooseWorkspace(%q, %q) = %v; want a refusal with %d candidates (ambiguous %v)", tc.typed, tc.dir, err, tc.candidates, tc.ambiguous)
			}
			for _, c := range un.Candidates {
				if !strings.Contains(err.Error(), c.ID) || !strings.Contains(err.Error(), c.RootPath) {
					t.Errorf("message %q does not list %s", err, c)
				}
			}
			if !collaberr.HasCode(err, collaberr.WorkspaceNotFound) {
				t.Errorf("refusal %v does not carry workspace_not_found", err)
			}
		})
	}
}
