package store

import (
	"context"
	"path/filepath"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// rightsProfile is recorded in every workspace.opened event.
const rightsProfile = "xenia.rights/0.1"

// OpenWorkspaceInput is what collab_workspace_open and collab_session_start
// need to resolve a directory to its workspace.
type OpenWorkspaceInput struct {
	RootPath      string
	Name          *string
	Actor         string
	RepositoryKey string
}

// OpenedWorkspace is the workspace a directory resolved to and the
// worktree row registered for that directory.
type OpenedWorkspace struct {
	Workspace Workspace
	Worktree  Worktree
	Identity  gitstate.Identity
}

// OpenWorkspace resolves a directory to its repository workspace, creating
// the workspace (event workspace.opened) or registering a new worktree of
// an existing one (event worktree.registered) as needed. Re-opening a known
// worktree writes no event.
func (s *Store) OpenWorkspace(ctx context.Context, in OpenWorkspaceInput) (OpenedWorkspace, error) {
	actor, err := normalize.Actor(in.Actor)
	if err != nil {
		return OpenedWorkspace{}, err
	}
	id, cp, err := s.observe(ctx, in.RootPath, in.RepositoryKey)
	if err != nil {
		return OpenedWorkspace{}, err
	}
	var out OpenedWorkspace
	err = s.writeTx(ctx, func(tx Tx) error {
		out, err = s.openWorkspaceIn(ctx, tx, actor, in.Name, id, cp)
		return err
	})
	return out, err
}

func (s *Store) openWorkspaceIn(ctx context.Context, tx Tx, actor string, name *string,
	id gitstate.Identity, cp gitstate.Checkpoint) (OpenedWorkspace, error) {
	out := OpenedWorkspace{Identity: id}
	now := s.nowISO()
	existing, found, err := tx.Worktree(ctx, WorktreeKey{RootPath: id.RootPath})
	if err != nil {
		return out, err
	}
	var wsID string
	switch {
	case found:
		if existing.RepositoryKey != id.RepositoryKey || existing.Fingerprint != id.Fingerprint {
			return out, collaberr.New(collaberr.WorktreeIdentityChanged,
				"This path now resolves to a different repository or worktree than the one registered for it").
				With("root_path", id.RootPath).With("registered_worktree_id", existing.ID)
		}
		if err := touchWorktree(ctx, tx, existing, cp, now); err != nil {
			return out, err
		}
		wsID = existing.WorkspaceID
	default:
		if wsID, err = s.placeWorktree(ctx, tx, actor, name, id, cp, now); err != nil {
			return out, err
		}
	}
	if out.Workspace, err = readWorkspace(ctx, tx, wsID); err != nil {
		return out, err
	}
	out.Worktree, _, err = tx.Worktree(ctx, WorktreeKey{RootPath: id.RootPath})
	return out, err
}

// placeWorktree registers an unknown worktree in the workspace of its
// repository, creating that workspace when the repository is new.
func (s *Store) placeWorktree(ctx context.Context, tx Tx, actor string, name *string,
	id gitstate.Identity, cp gitstate.Checkpoint, now string) (string, error) {
	wsID, err := workspaceForKey(ctx, tx, id.RepositoryKey)
	if err != nil {
		return "", err
	}
	ws, exists, err := tx.Workspace(ctx, wsID)
	if err != nil {
		return "", err
	}
	if exists && ws.RepositoryKey != id.RepositoryKey {
		return "", collaberr.New(collaberr.WorkspaceIdentityCollision,
			"Another repository already owns this workspace id; use an explicit repository_key to separate them")
	}
	if exists {
		return wsID, s.registerWorktree(ctx, tx, wsID, actor, id, cp, now)
	}
	return wsID, s.createWorkspace(ctx, tx, wsID, actor, name, id, cp, now)
}

// workspaceForKey picks the earliest workspace of a repository, or the id a
// new one would get.
func workspaceForKey(ctx context.Context, tx Workspaces, key string) (string, error) {
	ws, err := repositoryWorkspaces(ctx, tx, key)
	if err != nil {
		return "", err
	}
	if len(ws) == 0 {
		return workspaceIDFor(key), nil
	}
	return ws[0].ID, nil
}

// rootLabel is a workspace's default name: the last element of its root.
// The filesystem root has none (filepath.Base would say "/"), so a
// workspace there needs an explicit name, as in the reference.
func rootLabel(root string) string {
	label := filepath.Base(root)
	if label == string(filepath.Separator) || label == "." {
		return ""
	}
	return label
}

func (s *Store) createWorkspace(ctx context.Context, tx Tx, wsID, actor string, name *string,
	id gitstate.Identity, cp gitstate.Checkpoint, now string) error {
	label := rootLabel(id.RootPath)
	if name != nil {
		label = *name
	}
	label, err := normalize.Text(label, field.WorkspaceName)
	if err != nil {
		return err
	}
	if err := tx.CreateWorkspace(ctx, NewWorkspace{ID: wsID, EpochID: "epoch_" + newUUID(), RootPath: id.RootPath,
		Name: label, RepositoryKey: id.RepositoryKey, CreatedAt: now}); err != nil {
		return err
	}
	if err := tx.AddWorktree(ctx, wsID, FactsOf(id, cp), now); err != nil {
		return err
	}
	_, err = s.appendEvent(ctx, tx, wsID, newEvent{
		Type: journal.KindWorkspaceOpened, EntityID: wsID, Actor: actor,
		Payload: map[string]any{
			"root_path": id.RootPath, "repository_key": id.RepositoryKey, "worktree_id": id.WorktreeID,
			"name": label, "rights_profile": rightsProfile,
		},
	})
	return err
}

// registerWorktree adds a worktree to an existing workspace and journals it.
func (s *Store) registerWorktree(ctx context.Context, tx Tx, wsID, actor string,
	id gitstate.Identity, cp gitstate.Checkpoint, now string) error {
	if err := tx.AddWorktree(ctx, wsID, FactsOf(id, cp), now); err != nil {
		return err
	}
	_, err := s.appendEvent(ctx, tx, wsID, newEvent{
		Type: journal.KindWorktreeRegistered, EntityID: id.WorktreeID, Actor: actor,
		Payload: map[string]any{
			"root_path": id.RootPath, "repository_key": id.RepositoryKey,
			"checkpoint": map[string]any{
				"worktree_id": id.WorktreeID, "head_sha": nullable(cp.HeadSHA), "branch": nullable(cp.Branch),
				"dirty": nullableBool(cp.Dirty), "captured_at": now,
			},
		},
	})
	return err
}

// readWorkspace reads one workspace; workspace_not_found when there is
// none.
func readWorkspace(ctx context.Context, q Workspaces, id string) (Workspace, error) {
	w, ok, err := q.Workspace(ctx, id)
	if err == nil && !ok {
		err = workspaceNotFound(id)
	}
	return w, err
}

// Workspace reads one workspace.
func (s *Store) Workspace(ctx context.Context, id string) (Workspace, error) {
	var w Workspace
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		w, err = readWorkspace(ctx, tx, id)
		return err
	})
	return w, err
}

func nullable(s *string) any {
	if s == nil {
		return nil
	}
	return *s
}

func nullableBool(b *bool) any {
	if b == nil {
		return nil
	}
	return *b
}
