package gitstate

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

// vectors are the contract's worked examples (testdata/vectors.json).
type vectors struct {
	NonGit struct {
		RootPath      string `json:"root_path"`
		RepositoryKey string `json:"repository_key"`
		WorkspaceID   string `json:"workspace_id"`
		Fingerprint   string `json:"fingerprint"`
		WorktreeID    string `json:"worktree_id"`
	} `json:"non_git"`
	ExplicitKey struct {
		Key           string `json:"key"`
		RepositoryKey string `json:"repository_key"`
	} `json:"explicit_key"`
	EmptyUntrackedDigest string `json:"empty_untracked_digest"`
	ReducedCheckpoint    struct {
		WorktreeID    string `json:"worktree_id"`
		CapturedAt    string `json:"captured_at"`
		CanonicalJSON string `json:"canonical_json"`
		Digest        string `json:"digest"`
	} `json:"reduced_checkpoint"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "vectors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestNonGitIdentityMatchesContractVectors(t *testing.T) {
	v := loadVectors(t).NonGit
	id := nonGitIdentity(v.RootPath, "")
	if id.RepositoryKey != v.RepositoryKey || id.Fingerprint != v.Fingerprint || id.WorktreeID != v.WorktreeID {
		t.Fatalf("got %+v, want key %s fingerprint %s worktree %s", id, v.RepositoryKey, v.Fingerprint, v.WorktreeID)
	}
	if id.Git || id.GitCommonDirHash != nil || id.RootPath != v.RootPath {
		t.Fatalf("non-Git identity carries Git data: %+v", id)
	}
	if ws := "ws_" + hexOf([]byte(id.RepositoryKey))[:24]; ws != v.WorkspaceID {
		t.Fatalf("workspace id %s, want %s", ws, v.WorkspaceID)
	}
}

func TestExplicitKeyIsTrimmedAndBlankMeansNone(t *testing.T) {
	t.Parallel()
	v := loadVectors(t)
	cases := []struct{ name, key, want string }{
		{"plain", v.ExplicitKey.Key, v.ExplicitKey.RepositoryKey},
		{"surrounded by JavaScript white space", "\ufeff\t " + v.ExplicitKey.Key + "\u3000\n", v.ExplicitKey.RepositoryKey},
		{"empty", "", v.NonGit.RepositoryKey},
		{"blank", " \u00a0\t", v.NonGit.RepositoryKey},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := nonGitIdentity(v.NonGit.RootPath, c.key).RepositoryKey; got != c.want {
				t.Fatalf("key %q → %s, want %s", c.key, got, c.want)
			}
		})
	}
	r := newRepo(t)
	id, err := Inspect(context.Background(), r.dir, v.ExplicitKey.Key)
	if err != nil {
		t.Fatal(err)
	}
	want := wantGitIdentity(r.dir, r.path(".git"), r.path(".git"))
	if id.RepositoryKey != v.ExplicitKey.RepositoryKey || *id.GitCommonDirHash != *want.GitCommonDirHash ||
		id.WorktreeID != want.WorktreeID {
		t.Fatalf("explicit key on a Git root: %+v", id)
	}
}

// outsideWorktree returns a fresh directory that Git does not consider part
// of any worktree, or skips the test when the temporary area is inside one.
func outsideWorktree(t *testing.T) string {
	t.Helper()
	d := tempDir(t)
	if exec.Command("git", "-C", d, "rev-parse", "--show-toplevel").Run() == nil {
		t.Skip("the temporary directory is inside a Git worktree")
	}
	return d
}

func TestInspectResolvesGitRoots(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	r.write("sub/deeper/f.txt", "x", 0o644)
	r.commit()
	wt := filepath.Join(tempDir(t), "linked")
	r.git("worktree", "add", "-q", wt)
	wt, _ = filepath.EvalSymlinks(wt)
	link := filepath.Join(tempDir(t), "via-link")
	if err := os.Symlink(r.path("sub"), link); err != nil {
		t.Fatal(err)
	}
	main := wantGitIdentity(r.dir, r.path(".git"), r.path(".git"))
	linked := wantGitIdentity(wt, r.path(".git"), r.path(".git/worktrees/linked"))
	cases := []struct {
		name, root string
		want       Identity
	}{
		{"top level", r.dir, main},
		{"subdirectory resolves to the top level", r.path("sub/deeper"), main},
		{"symlink to a subdirectory", link, main},
		{"linked worktree", wt, linked},
		{"subdirectory of a linked worktree", filepath.Join(wt, "sub"), linked},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Inspect(context.Background(), c.root, "")
			if err != nil {
				t.Fatal(err)
			}
			assertIdentity(t, got, c.want)
		})
	}
	if main.RepositoryKey != linked.RepositoryKey || main.WorktreeID == linked.WorktreeID ||
		main.Fingerprint == linked.Fingerprint {
		t.Fatal("linked worktree must share the key and differ in worktree id and fingerprint")
	}
}

func assertIdentity(t *testing.T, got, want Identity) {
	t.Helper()
	if (got.GitCommonDirHash == nil) != (want.GitCommonDirHash == nil) ||
		got.GitCommonDirHash != nil && *got.GitCommonDirHash != *want.GitCommonDirHash {
		t.Fatalf("common dir hash differs: got %+v, want %+v", got, want)
	}
	got.GitCommonDirHash, want.GitCommonDirHash = nil, nil
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func TestInspectTreatsDirectoriesOutsideWorktreesAsPaths(t *testing.T) {
	t.Parallel()
	plain := outsideWorktree(t)
	bare := filepath.Join(tempDir(t), "bare.git")
	runGit(t, "", "init", "-q", "--bare", bare)
	r := newRepo(t)
	cases := []struct{ name, root string }{
		{"plain directory", plain},
		{"bare repository", bare},
		{"inside a .git directory", r.path(".git")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Inspect(context.Background(), c.root, "")
			if err != nil {
				t.Fatal(err)
			}
			assertIdentity(t, got, wantNonGitIdentity(c.root))
		})
	}
}

func TestInspectResolvesRelativeRootsAgainstTheWorkingDirectory(t *testing.T) {
	r := newRepo(t)
	r.write("sub/f", "x", 0o644)
	t.Chdir(r.path("sub"))
	got, err := Inspect(context.Background(), "..", "")
	if err != nil {
		t.Fatal(err)
	}
	assertIdentity(t, got, wantGitIdentity(r.dir, r.path(".git"), r.path(".git")))
}

func TestInspectRefusesRootsThatAreNotDirectories(t *testing.T) {
	d := tempDir(t)
	file := filepath.Join(d, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(d)
	cases := []struct{ name, root, want string }{
		{"missing", filepath.Join(d, "missing"), filepath.Join(d, "missing")},
		{"regular file", file, file},
		{"relative missing path is reported resolved", "nope/", filepath.Join(d, "nope")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Inspect(context.Background(), c.root, "")
			ce, ok := collaberr.As(err)
			if !ok || ce.Code != "workspace_not_directory" {
				t.Fatalf("got %v, want workspace_not_directory", err)
			}
			if p, _ := ce.Detail("root_path"); p != c.want {
				t.Fatalf("root_path %v, want %s", p, c.want)
			}
		})
	}
}

func TestInspectReportsAnEndedContext(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Inspect(ctx, r.dir, ""); err == nil {
		t.Fatal("a cancelled context must not yield an identity")
	}
}
