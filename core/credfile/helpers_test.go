package credfile_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
)

// testToken is a recognisable secret that must never appear in a refusal.
const testToken = "Zm9yYmlkZGVuLXNlY3JldC10b2tlbi12YWx1ZS0wMTIzNDU2"

func sampleCredential() credfile.Credential {
	return credfile.Credential{
		SessionID:  "session_00000000-0000-4000-8000-000000000001",
		Token:      testToken,
		Generation: 1,
		LastCursor: &credfile.Cursor{
			EpochID:  "epoch_00000000-0000-4000-8000-000000000002",
			Sequence: 0,
			Hash:     strings.Repeat("0", 64),
		},
	}
}

// privateDir returns a fresh 0700 credential directory inside the test's
// temporary directory.
func privateDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state", credfile.DirName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// writeRaw places data at path with the given mode, bypassing credfile.
func writeRaw(t *testing.T, path string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// requireRefusal asserts err is a refusal with code whose only detail is
// operation (no details when operation is empty) and whose rendered text
// and details mention neither path, its directory, nor the test token.
func requireRefusal(t *testing.T, err error, code collaberr.Code, operation, path string) {
	t.Helper()
	ce, ok := collaberr.As(err)
	if !ok {
		t.Fatalf("got %v, want refusal %s", err, code)
	}
	if ce.Code != string(code) {
		t.Fatalf("code = %q (%v), want %q", ce.Code, err, code)
	}
	var want []collaberr.Field
	if operation != "" {
		want = []collaberr.Field{{Key: "operation", Value: operation}}
	}
	if fmt.Sprint(ce.Details) != fmt.Sprint(want) {
		t.Fatalf("details = %v, want %v", ce.Details, want)
	}
	rendered, mErr := json.Marshal(ce)
	if mErr != nil {
		t.Fatal(mErr)
	}
	text := err.Error() + "\n" + string(rendered)
	for _, secret := range []string{path, filepath.Dir(path), testToken} {
		if secret != "" && strings.Contains(text, secret) {
			t.Fatalf("refusal leaks %q: %s", secret, text)
		}
	}
}

// modeOf returns the permission bits of path without following a symlink.
func modeOf(t *testing.T, path string) os.FileMode {
	t.Helper()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

// requireNoTempFiles fails when a <name>.tmp-* file was left in dir.
func requireNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	left, err := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 0 {
		t.Fatalf("temporary files left behind: %v", left)
	}
}
