package guard

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/store"
)

// BenchmarkCheck100StagedPathsAgainst1000Claims is one pre-commit check as
// the hook runs it, minus the process start: Git lists 100 staged paths,
// the database is opened read-only, 1,000 live claims are read and
// matched.
func BenchmarkCheck100StagedPathsAgainst1000Claims(b *testing.B) {
	ctx := context.Background()
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	gitIn(b, dir, "init", "-q", "-b", "main", repo)
	gitIn(b, repo, "commit", "-q", "--allow-empty", "-m", "init")
	for i := range 100 {
		p := filepath.Join(repo, fmt.Sprintf("pkg%d", i*10), "module", "f.go")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("package m\n"), 0o644)
	}
	gitIn(b, repo, "add", "-A")
	root, _ := filepath.EvalSymlinks(repo)
	db := filepath.Join(dir, "collab.sqlite")
	fillClaims(b, ctx, db, root, 1000)
	in := CheckInput{Hook: PreCommit, Dir: root, Root: root, Database: db}
	b.ResetTimer()
	for b.Loop() {
		v, err := Check(ctx, in)
		if err != nil || len(v.Conflicts) != 100 {
			b.Fatalf("check: %v, %d conflicts", err, len(v.Conflicts))
		}
	}
}

// fillClaims writes n claimed tasks of three scopes each, as a legacy
// actor, without Git checkpoints (the store's observers are stubbed).
func fillClaims(b *testing.B, ctx context.Context, db, root string, n int) {
	b.Helper()
	observe := func(ctx context.Context, r, key string) (gitstate.Identity, gitstate.Checkpoint, error) {
		id, err := gitstate.Inspect(ctx, r, key)
		return id, gitstate.Checkpoint{}, err
	}
	capture := func(context.Context, gitstate.Identity) gitstate.Checkpoint { return gitstate.Checkpoint{} }
	st, err := backend.Open(ctx, backend.Options{Path: db, Observe: observe, Capture: capture})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ws, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: root, Actor: "lead"})
	if err != nil {
		b.Fatal(err)
	}
	for i := range n {
		id := fmt.Sprintf("t%d", i)
		if _, err := st.CreateTask(ctx, store.LabelActor("lead"), store.CreateTaskInput{WorkspaceID: ws.Workspace.ID,
			IdempotencyKey: "c" + id, TaskID: &id, Title: "task " + id,
			PathScopes: []string{fmt.Sprintf("pkg%d/module", i), fmt.Sprintf("docs/pkg%d.md", i), fmt.Sprintf("cmd/tool%d", i)}}); err != nil {
			b.Fatal(err)
		}
		if _, err := st.ClaimTask(ctx, store.LabelActor(fmt.Sprintf("agent%d", i%7)), store.ClaimInput{WorkspaceID: ws.Workspace.ID,
			TaskID: id, IdempotencyKey: "k" + id, ExpectedVersion: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func gitIn(b *testing.B, dir string, args ...string) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=t",
		"GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
