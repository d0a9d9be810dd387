package gitstate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
)

// Identity is what a directory resolves to
// (docs/contract.md#repository-identity).
type Identity struct {
	RootPath         string  // canonical (realpath) worktree root
	RepositoryKey    string  // "local-git:<hex>" | "local-path:<hex>" | "explicit:<hex>"
	GitCommonDirHash *string // nil for non-Git roots
	Fingerprint      string  // "git:<hex>" | "path:<hex>"
	WorktreeID       string  // "wt_" + 24 hex
	Git              bool    // whether the root is a Git worktree's top level
}

// Inspect resolves root, made absolute against the process working directory,
// to its repository identity exactly as docs/contract.md#repository-identity
// describes: a directory inside a Git worktree resolves to that worktree's
// top level; any other directory is its own non-Git root. A non-blank
// explicitKey replaces the derived repository key. Refusals:
// workspace_not_directory {root_path} when root is not an existing directory,
// and git_identity_unavailable {root_path} when Git names a worktree but not
// its directories. A context that ends during inspection returns its error.
func Inspect(ctx context.Context, root, explicitKey string) (Identity, error) {
	id, _, err := inspect(ctx, newRunner(Limits{}.withDefaults()), root, explicitKey, false)
	return id, err
}

// inspected is what inspect learns besides the identity: the
// repository's directories (empty outside Git) and, when asked for, HEAD
// (nil when not learned).
type inspected struct {
	dirs repoDirs
	head *headState
}

// inspect is Inspect with a runner; when withHead is set it also tries to
// learn HEAD in the same git process.
func inspect(ctx context.Context, r runner, root, explicitKey string, withHead bool) (Identity, inspected, error) {
	requested, err := requestedRoot(root)
	if err != nil {
		return Identity{}, inspected{}, err
	}
	loc := locate(ctx, r, requested, withHead)
	if err := ctx.Err(); err != nil {
		return Identity{}, inspected{}, fmt.Errorf("inspect %s: %w", requested, err)
	}
	if !loc.git {
		return nonGitIdentity(loc.rootPath, explicitKey), inspected{}, nil
	}
	if !loc.dirsOK {
		return Identity{}, inspected{}, collaberr.New(collaberr.GitIdentityUnavailable,
			"Git reports a worktree here but not its repository directories").
			With("root_path", loc.rootPath)
	}
	id := gitIdentity(loc.rootPath, loc.commonDir, loc.gitDir, explicitKey)
	return id, inspected{dirs: repoDirs{commonDir: loc.commonDir, gitDir: loc.gitDir}, head: loc.head}, nil
}

// requestedRoot makes root absolute, checks that it is a directory and
// returns its canonical path.
func requestedRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("resolve workspace root %q: %w", root, err)
	}
	refuse := func() error {
		return collaberr.New(collaberr.WorkspaceNotDirectory, "The workspace root is not an existing directory").
			With("root_path", abs)
	}
	info, err := os.Stat(abs)
	if err != nil || !info.IsDir() {
		return "", refuse()
	}
	real, ok := realpath(abs)
	if !ok {
		return "", refuse()
	}
	return real, nil
}

// nonGitIdentity derives the identity of a directory outside any worktree.
func nonGitIdentity(rootPath, explicitKey string) Identity {
	pathHash := sha256Hex(rootPath)
	return Identity{
		RootPath:      rootPath,
		RepositoryKey: repositoryKey(explicitKey, "local-path:"+pathHash),
		Fingerprint:   "path:" + pathHash,
		WorktreeID:    worktreeID(rootPath, "path:"+rootPath),
	}
}

// gitIdentity derives the identity of a Git worktree from its canonical
// root, common directory and per-worktree Git directory.
func gitIdentity(rootPath, commonDir, gitDir, explicitKey string) Identity {
	commonHash := sha256Hex(commonDir)
	fingerprint := "git:" + sha256Hex(commonDir+"\x00"+gitDir)
	return Identity{
		RootPath:         rootPath,
		RepositoryKey:    repositoryKey(explicitKey, "local-git:"+commonHash),
		GitCommonDirHash: &commonHash,
		Fingerprint:      fingerprint,
		WorktreeID:       worktreeID(rootPath, fingerprint),
		Git:              true,
	}
}

// repositoryKey is "explicit:<sha256(trimmed key)>" for a non-blank explicit
// key and derived otherwise.
func repositoryKey(explicitKey, derived string) string {
	if k := normalize.TrimJS(explicitKey); k != "" {
		return "explicit:" + sha256Hex(k)
	}
	return derived
}

// worktreeID is "wt_" + the first 24 hex digits of sha256(root NUL tag).
func worktreeID(rootPath, tag string) string {
	return "wt_" + sha256Hex(rootPath + "\x00" + tag)[:24]
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// realpath canonicalises an absolute path like realpath(3), returning the
// result as the reference's string would read; ok is false when the path
// cannot be resolved (for example it does not exist).
func realpath(p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", false
	}
	return decodeText([]byte(real)), true
}
