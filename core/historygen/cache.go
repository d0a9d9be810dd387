package historygen

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/journal"
)

// mixVersion names the generator's mix; change it whenever mix.go
// writes something else, so that cached journals of the old mix are not
// reused.
const mixVersion = 2

// Fixture is a generated journal kept on disk: the database, the
// workspace's repository, and what Generate reported.
type Fixture struct {
	DB          string `json:"-"`
	Root        string `json:"-"`
	WorkspaceID string `json:"workspace_id"`
	Events      int64  `json:"events"`
	// Head is the journal's head anchor when the fixture was made.
	Head journal.Anchor `json:"head"`
	// GenerateSeconds is how long Generate took when the fixture was made.
	GenerateSeconds float64 `json:"generate_seconds"`
}

// Cached returns the fixture of n events under dir (os.TempDir() when
// empty), generating it on first use. The directory is keyed by n, the
// schema version and the mix version. A fixture counts as made only once
// its fixture.json is written, last and by rename, so an interrupted run
// leaves nothing half-made to be reused (the next one starts afresh); a
// lock file keeps two processes from building the same one at once. The
// journal records the repository's path, so the fixture is built where it
// stays. Callers copy DB before writing to it; Root is only read.
func Cached(ctx context.Context, dir string, n int64) (Fixture, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	final := filepath.Join(dir, fmt.Sprintf("collab-history-s%d-m%d-n%d", backend.SchemaVersion, mixVersion, n))
	if f, err := load(final); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return Fixture{}, fmt.Errorf("create fixture directory: %w", err)
	}
	real, err := filepath.EvalSymlinks(dir) // the journal records canonical roots
	if err != nil {
		return Fixture{}, fmt.Errorf("resolve fixture directory: %w", err)
	}
	final = filepath.Join(real, filepath.Base(final))
	unlock, err := lock(final + ".lock")
	if err != nil {
		return Fixture{}, err
	}
	defer unlock()
	if f, err := load(final); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, err // built by another process meanwhile
	}
	if err := os.RemoveAll(final); err != nil {
		return Fixture{}, fmt.Errorf("remove an unfinished fixture: %w", err)
	}
	if err := build(ctx, final, n); err != nil {
		return Fixture{}, err
	}
	return load(final)
}

// build makes the repository and generates the journal in dir.
func build(ctx context.Context, dir string, n int64) error {
	repo := filepath.Join(dir, "repo")
	if err := makeRepo(ctx, repo); err != nil {
		return err
	}
	res, err := Generate(ctx, Options{Path: filepath.Join(dir, "collab.sqlite"), Root: repo, Events: n})
	if err != nil {
		return err
	}
	meta, err := json.Marshal(Fixture{WorkspaceID: res.WorkspaceID, Events: res.Events, Head: res.Head,
		GenerateSeconds: res.Elapsed.Seconds()})
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, "fixture.json.tmp")
	if err := os.WriteFile(tmp, meta, 0o600); err != nil {
		return fmt.Errorf("write fixture.json: %w", err)
	}
	return os.Rename(tmp, filepath.Join(dir, "fixture.json"))
}

func load(dir string) (Fixture, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "fixture.json"))
	if err != nil {
		return Fixture{}, err
	}
	var f Fixture
	if err := json.Unmarshal(raw, &f); err != nil {
		return Fixture{}, fmt.Errorf("read fixture %s: %w", dir, err)
	}
	f.DB, f.Root = filepath.Join(dir, "collab.sqlite"), filepath.Join(dir, "repo")
	return f, nil
}

// makeRepo creates a Git repository with one commit at dir.
func makeRepo(ctx context.Context, dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "a.go"), []byte("package a\n"), 0o644); err != nil {
		return err
	}
	date := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "init"}} {
		cmd := exec.CommandContext(ctx, "git", append([]string{"-C", dir}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
			"GIT_AUTHOR_NAME=historygen", "GIT_AUTHOR_EMAIL=historygen@example.com", "GIT_COMMITTER_NAME=historygen",
			"GIT_COMMITTER_EMAIL=historygen@example.com", "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git %v: %w: %s", args, err, out)
		}
	}
	return nil
}
