package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// WorkspaceCandidate is one workspace a typed name could have meant, as a
// refusal lists it.
type WorkspaceCandidate struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	RootPath string `json:"root_path"`
}

// String renders the candidate on one line: name, id and root.
func (c WorkspaceCandidate) String() string {
	return fmt.Sprintf("%s (%s, %s)", c.Name, c.ID, c.RootPath)
}

// UnresolvedWorkspace is the refusal of a typed workspace name that names
// no single workspace. It unwraps to a workspace_not_found refusal whose
// message lists the candidates.
type UnresolvedWorkspace struct {
	// Typed is what the person typed.
	Typed string
	// Ambiguous is true when several workspaces answer to it; otherwise
	// none does and the candidates are every workspace.
	Ambiguous  bool
	Candidates []WorkspaceCandidate
}

// Error says what was typed and lists the candidates.
func (e *UnresolvedWorkspace) Error() string {
	list := make([]string, len(e.Candidates))
	for i, c := range e.Candidates {
		list[i] = c.String()
	}
	switch {
	case e.Ambiguous:
		return fmt.Sprintf("%q names %d workspaces: %s", e.Typed, len(list), strings.Join(list, "; "))
	case len(list) == 0:
		return fmt.Sprintf("no workspace is named, identified or rooted at %q, and the database holds none", e.Typed)
	}
	return fmt.Sprintf("no workspace is named, identified or rooted at %q; workspaces: %s", e.Typed, strings.Join(list, "; "))
}

// Unwrap is the refusal as a registered code.
func (e *UnresolvedWorkspace) Unwrap() error {
	return collaberr.New(collaberr.WorkspaceNotFound, e.Error()).With("typed", e.Typed).With("candidates", e.Candidates)
}

// ResolveWorkspace turns what a person typed into one workspace of the
// database (see ChooseWorkspace for the rules). dir is the absolute,
// symlink-free directory the typed text names on this machine, "" when it
// names none; the caller resolves it, since only the caller knows its
// working directory. It only reads; a refusal is an *UnresolvedWorkspace.
func (s *Store) ResolveWorkspace(ctx context.Context, typed, dir string) (Workspace, error) {
	var list []Workspace
	var trees []Worktree
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		if list, err = tx.Workspaces(ctx, WorkspaceFilter{}); err != nil {
			return err
		}
		for _, ws := range list {
			wt, err := tx.Worktrees(ctx, ws.ID)
			if err != nil {
				return err
			}
			trees = append(trees, wt...)
		}
		return nil
	})
	if err != nil {
		return Workspace{}, fmt.Errorf("list the workspaces: %w", err)
	}
	return ChooseWorkspace(list, trees, typed, dir)
}

// ChooseWorkspace picks the one workspace of list that typed (or the
// directory dir) names, trying in turn: an exact workspace id; a prefix of
// an id, with or without "ws_", of at least four characters; the
// workspace's name, exactly and then ignoring case; the workspace whose
// root, or the root of one of its worktrees, holds dir (the deepest such
// root wins). The first rule that matches decides: one workspace is the
// answer, several are refused as ambiguous. Nothing matching is refused
// with every workspace as a candidate.
func ChooseWorkspace(list []Workspace, worktrees []Worktree, typed, dir string) (Workspace, error) {
	typed = strings.TrimSpace(typed)
	prefix := strings.TrimPrefix(strings.ToLower(typed), "ws_")
	rules := []func(Workspace) bool{
		func(ws Workspace) bool { return typed != "" && ws.ID == typed },
		func(ws Workspace) bool { return len(prefix) >= 4 && strings.HasPrefix(ws.ID, "ws_"+prefix) },
		func(ws Workspace) bool { return typed != "" && ws.Name == typed },
		func(ws Workspace) bool { return typed != "" && strings.EqualFold(ws.Name, typed) },
		deepestRootHolding(list, worktrees, dir),
	}
	for _, rule := range rules {
		var found []Workspace
		for _, ws := range list {
			if rule(ws) {
				found = append(found, ws)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			return Workspace{}, &UnresolvedWorkspace{Typed: typed, Ambiguous: true, Candidates: workspaceCandidates(found)}
		}
	}
	return Workspace{}, &UnresolvedWorkspace{Typed: typed, Candidates: workspaceCandidates(list)}
}

// deepestRootHolding matches the workspaces with the deepest root (its own
// or a worktree's) that holds dir; nothing when dir is "".
func deepestRootHolding(list []Workspace, worktrees []Worktree, dir string) func(Workspace) bool {
	depth := map[string]int{}
	best := -1
	consider := func(wsID, root string) {
		if dir == "" || root == "" || (dir != root && !strings.HasPrefix(dir, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))) {
			return
		}
		if len(root) > depth[wsID] {
			depth[wsID] = len(root)
		}
		best = max(best, len(root))
	}
	for _, ws := range list {
		consider(ws.ID, ws.RootPath)
	}
	for _, wt := range worktrees {
		consider(wt.WorkspaceID, wt.RootPath)
	}
	return func(ws Workspace) bool {
		d, ok := depth[ws.ID]
		return ok && d == best
	}
}

func workspaceCandidates(list []Workspace) []WorkspaceCandidate {
	out := make([]WorkspaceCandidate, len(list))
	for i, ws := range list {
		out[i] = WorkspaceCandidate{ID: ws.ID, Name: ws.Name, RootPath: ws.RootPath}
	}
	return out
}

// WorkspaceHolding is the workspace whose root, or the root of one of its
// worktrees, is the deepest to hold dir (an absolute, symlink-free path);
// found is false when none holds it, and several equally deep are refused
// as ambiguous.
func (s *Store) WorkspaceHolding(ctx context.Context, dir string) (ws Workspace, found bool, err error) {
	ws, err = s.ResolveWorkspace(ctx, "", dir)
	var un *UnresolvedWorkspace
	if errors.As(err, &un) && !un.Ambiguous {
		return Workspace{}, false, nil
	}
	return ws, err == nil, err
}
