package credfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/credfile"
)

func TestRemoveOfAbsentPathIsNotAnError(t *testing.T) {
	dir := privateDir(t)
	for _, path := range []string{
		filepath.Join(dir, "absent.json"),
		filepath.Join(dir, "no-such-dir", "absent.json"),
	} {
		if err := credfile.Remove(path); err != nil {
			t.Fatalf("Remove(absent) = %v", err)
		}
	}
}

func TestRemoveDeletesWrittenFile(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	if err := credfile.Write(path, sampleCredential(), false); err != nil {
		t.Fatal(err)
	}
	if err := credfile.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("file still present: %v", err)
	}
}

func TestRemoveRefusesDirectoryAtPath(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	err := credfile.Remove(path)
	requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpRemove, path)
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("directory was removed: %v", err)
	}
}
