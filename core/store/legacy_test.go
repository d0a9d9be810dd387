package store_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	oscmd "os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// gitRun runs git with a fixed identity for fixture layouts.
func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := oscmd.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=f",
		"GIT_AUTHOR_EMAIL=f@example.invalid", "GIT_COMMITTER_NAME=f", "GIT_COMMITTER_EMAIL=f@example.invalid")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitRepo makes a repository with one commit under parent/name.
func gitRepo(t *testing.T, parent, name string, files ...string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	for _, f := range append(files, "README.md") {
		full := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(f+"\n"), 0o644)
	}
	gitRun(t, dir, "init", "-q", "-b", "main")
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "-m", "initial")
	return dir
}

// rewriteRoots points a copied legacy fixture's workspaces at new roots, as
// the fixture README's recipe describes (root_path is not hashed).
func rewriteRoots(t *testing.T, db string, roots map[string]string) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	for id, root := range roots {
		if _, err := conn.Exec("UPDATE workspaces SET root_path = ? WHERE id = ?", root, id); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec("PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
}

func observedDetails(t *testing.T, fixture string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "fixtures", "legacy", fixture, "observed-0.4.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	var o struct {
		StoreProbe struct {
			Result struct {
				Details map[string]any `json:"details"`
			} `json:"result"`
		} `json:"store_probe"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	return o.StoreProbe.Result.Details
}

func TestLegacyRootsThatCollapseIntoOneWorktreeAreRefusedUntouched(t *testing.T) {
	for _, tc := range []struct{ fixture, repoWS, subWS string }{
		{"collision-v0.1.0", "ws_c5d2162ad2d83c2c99710357", "ws_5b59e155391b72635e1140e8"},
		{"collision-v0.2.0", "ws_a7eb50be0920477e3f6f6903", "ws_212db8f55ca705a325515cf8"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			db := copyFixture(t, filepath.Join("testdata", "fixtures", "legacy", tc.fixture, "collab.sqlite"))
			root, _ := filepath.EvalSymlinks(t.TempDir())
			repo := gitRepo(t, root, "repo", "packages/core/package.json")
			rewriteRoots(t, db, map[string]string{tc.repoWS: repo, tc.subWS: filepath.Join(repo, "packages", "core")})
			before := fileSHA(t, db)
			_, err := backend.Open(context.Background(), backend.Options{Path: db})
			ce, ok := collaberr.As(err)
			if !ok || ce.Code != "migration_identity_collision" {
				t.Fatalf("want migration_identity_collision, got %v", err)
			}
			got := map[string]any{}
			for _, d := range ce.Details {
				b, _ := json.Marshal(d.Value)
				var v any
				json.Unmarshal(b, &v)
				got[d.Key] = v
			}
			if want := observedDetails(t, tc.fixture); !reflect.DeepEqual(got, want) {
				gb, _ := json.Marshal(got)
				wb, _ := json.Marshal(want)
				t.Fatalf("details differ from the reference:\n got %s\nwant %s", gb, wb)
			}
			if fileSHA(t, db) != before {
				t.Fatal("the refused file changed")
			}
			for _, side := range []string{db + "-wal", db + "-shm"} {
				if _, err := os.Stat(side); err == nil {
					t.Errorf("%s left behind", filepath.Base(side))
				}
			}
		})
	}
}

func TestLinkedWorktreePartitionsMigrateButRefuseSessions(t *testing.T) {
	const mainWS, linkedWS = "ws_a4a93d73c724a928dcf51d6b", "ws_d5d1b3bd9818838b17a3797a"
	db := copyFixture(t, filepath.Join("testdata", "fixtures", "legacy", "partitioned-v0.1.0", "collab.sqlite"))
	root, _ := filepath.EvalSymlinks(t.TempDir())
	repo := gitRepo(t, root, "repo", "web/app.ts")
	linked := filepath.Join(root, "repo-wt")
	gitRun(t, repo, "worktree", "add", "-q", "-b", "feature/web", linked)
	rewriteRoots(t, db, map[string]string{mainWS: repo, linkedWS: linked})
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: db})
	if err != nil {
		t.Fatalf("migration: %v", err)
	}
	defer st.Close()
	keys := map[string]bool{}
	for _, id := range []string{mainWS, linkedWS} {
		ws, err := st.Workspace(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		keys[ws.RepositoryKey] = true
		if ok, err := st.VerifyJournal(ctx, id); err != nil || !ok {
			t.Fatalf("%s does not verify after migration: %v", id, err)
		}
	}
	if len(keys) != 1 {
		t.Fatalf("linked worktrees got different repository keys: %v", keys)
	}
	for _, dir := range []string{repo, linked} {
		_, err := st.StartSession(ctx, store.StartSessionInput{RootPath: dir, Actor: "a"})
		ce, ok := collaberr.As(err)
		if !ok || ce.Code != "repository_partitioned" {
			t.Fatalf("%s: want repository_partitioned, got %v", dir, err)
		}
		if ids, _ := ce.Detail("workspace_ids"); !reflect.DeepEqual(ids, []string{mainWS, linkedWS}) {
			t.Fatalf("workspace_ids %v", ids)
		}
	}
	for dir, want := range map[string]string{repo: mainWS, linked: linkedWS} {
		opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: dir, Actor: "legacy"})
		if err != nil || opened.Workspace.ID != want {
			t.Fatalf("legacy open of %s: %v %v", dir, opened.Workspace.ID, err)
		}
	}
	var coordination int
	readPool(st).QueryRow("SELECT count(*) FROM coordination_sessions").Scan(&coordination)
	if coordination != 0 {
		t.Fatalf("migration invented %d coordination sessions", coordination)
	}
}
