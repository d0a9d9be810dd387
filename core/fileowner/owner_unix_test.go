//go:build unix

package fileowner

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestMineHoldsForAFileThisProcessCreated(t *testing.T) {
	info := lstat(t, touch(t, filepath.Join(t.TempDir(), "f")))
	if !Mine(info) {
		t.Fatal("a file this process created is not Mine")
	}
	if !ownedBy(info, os.Getuid()) {
		t.Fatal("the file is not owned by the real uid")
	}
}

func TestAnotherUIDIsNotTheOwner(t *testing.T) {
	info := lstat(t, touch(t, filepath.Join(t.TempDir(), "f")))
	if ownedBy(info, os.Getuid()+1) {
		t.Fatalf("ownedBy(uid %d) holds for a file of uid %d", os.Getuid()+1, os.Getuid())
	}
}

func TestAFileChownedAwayIsNotMine(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("only root can give a file to another uid")
	}
	path := touch(t, filepath.Join(t.TempDir(), "f"))
	if err := os.Lchown(path, 4242, 4242); err != nil {
		t.Fatal(err)
	}
	if Mine(lstat(t, path)) {
		t.Fatal("a file owned by uid 4242 is Mine for uid 0")
	}
}

// bareInfo is a FileInfo without stat data, as a fake file system returns.
type bareInfo struct{}

func (bareInfo) Name() string       { return "bare" }
func (bareInfo) Size() int64        { return 0 }
func (bareInfo) Mode() fs.FileMode  { return 0o600 }
func (bareInfo) ModTime() time.Time { return time.Time{} }
func (bareInfo) IsDir() bool        { return false }
func (bareInfo) Sys() any           { return nil }

func TestAFileInfoWithoutStatDataIsNotMine(t *testing.T) {
	if Mine(bareInfo{}) {
		t.Fatal("a FileInfo without an owner counts as Mine")
	}
	if LinkCount(bareInfo{}) != 1 {
		t.Fatal("a FileInfo without stat data does not count one link")
	}
}

func TestLinkCountSeesHardLinks(t *testing.T) {
	dir := t.TempDir()
	path := touch(t, filepath.Join(dir, "f"))
	if n := LinkCount(lstat(t, path)); n != 1 {
		t.Fatalf("LinkCount = %d for a fresh file, want 1", n)
	}
	if err := os.Link(path, filepath.Join(dir, "g")); err != nil {
		t.Fatal(err)
	}
	if n := LinkCount(lstat(t, path)); n != 2 {
		t.Fatalf("LinkCount = %d after a hard link, want 2", n)
	}
}

func touch(t *testing.T, path string) string {
	t.Helper()
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func lstat(t *testing.T, path string) fs.FileInfo {
	t.Helper()
	info, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
