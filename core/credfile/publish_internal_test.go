package credfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

// TestPublishWithoutReplaceLosesRaceCleanly simulates a path that appeared
// after the existence check: the link must fail with session_file_exists,
// keep the other writer's file and delete the temp file.
func TestPublishWithoutReplaceLosesRaceCleanly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cred.json")
	tmp, err := writeTemp(path, []byte("mine\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("theirs\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = publish(tmp, path, false)
	if !collaberr.HasCode(err, CodeFileExists) {
		t.Fatalf("publish = %v, want %s", err, CodeFileExists)
	}
	if got, _ := os.ReadFile(path); string(got) != "theirs\n" {
		t.Fatalf("other writer's file replaced: %q", got)
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Fatalf("temp file left behind: %v", err)
	}
}

// TestPublishWithReplaceFailureRemovesTempFile forces rename to fail (the
// target is a non-empty directory) and checks the temp file is cleaned up.
func TestPublishWithReplaceFailureRemovesTempFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cred.json")
	if err := os.MkdirAll(filepath.Join(path, "occupied"), 0o700); err != nil {
		t.Fatal(err)
	}
	tmp, err := writeTemp(path, []byte("mine\n"), true)
	if err != nil {
		t.Fatal(err)
	}
	if err := publish(tmp, path, true); !collaberr.HasCode(err, CodeWriteFailed) {
		t.Fatalf("publish = %v, want %s", err, CodeWriteFailed)
	}
	if _, err := os.Lstat(tmp); !os.IsNotExist(err) {
		t.Fatalf("temp file left behind: %v", err)
	}
}
