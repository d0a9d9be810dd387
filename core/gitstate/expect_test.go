package gitstate

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The functions in this file re-derive the contract's values from scratch,
// straight from the wording of docs/contract.md (repository identity, Git
// checkpoints), without the package's code paths, so that tests compare two
// independent derivations.

func hexOf(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// wantGitIdentity is the identity of a worktree whose common and Git
// directories are known from how the test created them.
func wantGitIdentity(root, common, gitDir string) Identity {
	commonHash := hexOf([]byte(common))
	fp := "git:" + hexOf([]byte(common+"\x00"+gitDir))
	return Identity{
		RootPath: root, RepositoryKey: "local-git:" + commonHash, GitCommonDirHash: &commonHash,
		Fingerprint: fp, WorktreeID: "wt_" + hexOf([]byte(root + "\x00" + fp))[:24], Git: true,
	}
}

// wantNonGitIdentity is the identity of a directory outside any worktree.
func wantNonGitIdentity(root string) Identity {
	h := hexOf([]byte(root))
	return Identity{RootPath: root, RepositoryKey: "local-path:" + h, Fingerprint: "path:" + h,
		WorktreeID: "wt_" + hexOf([]byte(root + "\x00path:" + root))[:24]}
}

// wantDigests computes index_sha256 and state_sha256 of a quiescent
// worktree from the outputs of the git commands checkpoint capture names.
func wantDigests(t testing.TB, root string) (index, state string) {
	t.Helper()
	ls := runGit(t, root, "ls-files", "-s", "-z")
	diff := runGit(t, root, "diff", "--no-ext-diff", "--binary", "HEAD", "--")
	status := runGit(t, root, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	others := runGit(t, root, "ls-files", "--others", "--exclude-standard", "-z")
	u := wantUntracked(t, root, others)
	payload := append(append(append(append(diff, 0), status...), 0), u...)
	return hexOf(ls), hexOf(payload)
}

// wantUntracked digests untracked entries by reading each one whole.
func wantUntracked(t testing.TB, root string, listing []byte) []byte {
	t.Helper()
	h := sha256.New()
	h.Write([]byte("agenttool.collab/untracked-state/v1"))
	h.Write([]byte{0})
	u64 := func(n int) { _ = binary.Write(h, binary.BigEndian, uint64(n)) }
	for _, name := range strings.Split(string(listing), "\x00") {
		if name == "" {
			continue
		}
		p := filepath.Join(root, name)
		info, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		u64(len(name))
		h.Write([]byte(name))
		if info.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			if err != nil {
				t.Fatal(err)
			}
			h.Write([]byte("symlink\x00"))
			u64(len(target))
			h.Write([]byte(target))
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		h.Write([]byte("file\x00"))
		u64(int(info.Mode().Perm() & 0o111))
		h.Write(sum[:])
	}
	return h.Sum(nil)
}
