//go:build unix

package credfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/agenttool/collab/core/credfile"
)

// nobody is a uid that is not the test process's (used only when running as
// root, the one case where a test can create files owned by someone else).
const nobody = 65534

func TestWriteCreatesPrivateDirectoryAndFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), credfile.DirName)
	path := filepath.Join(dir, "cred.json")
	if err := credfile.Write(path, sampleCredential(), false); err != nil {
		t.Fatal(err)
	}
	if m := modeOf(t, dir); m != 0o700 {
		t.Fatalf("directory mode %o, want 700", m)
	}
	if m := modeOf(t, path); m != 0o600 {
		t.Fatalf("file mode %o, want 600", m)
	}
}

// TestWriteModesDoNotDependOnUmask runs with a umask that strips owner bits;
// the directory and file must still end up exactly 0700 and 0600. The umask
// is process-wide, so this test must not run in parallel.
func TestWriteModesDoNotDependOnUmask(t *testing.T) {
	old := syscall.Umask(0o377)
	defer syscall.Umask(old)
	dir := filepath.Join(t.TempDir(), credfile.DirName)
	path := filepath.Join(dir, "cred.json")
	err := credfile.Write(path, sampleCredential(), false)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if m := modeOf(t, dir); m != 0o700 {
		t.Fatalf("directory mode %o, want 700", m)
	}
	if m := modeOf(t, path); m != 0o600 {
		t.Fatalf("file mode %o, want 600", m)
	}
}

func TestWriteNeverChmodsExistingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), credfile.DirName)
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cred.json")
	err := credfile.Write(path, sampleCredential(), false)
	requireRefusal(t, err, credfile.CodeDirectoryNotPrivate, credfile.OpValidateDirectory, path)
	if m := modeOf(t, dir); m != 0o755 {
		t.Fatalf("directory mode changed to %o", m)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("file created in a non-private directory: %v", err)
	}
}

// TestPrivateDirectoryChecksRejectNonPrivateParents covers the parent check
// shared by Write, Read and Remove.
func TestPrivateDirectoryChecksRejectNonPrivateParents(t *testing.T) {
	type parent struct {
		name  string
		setup func(t *testing.T) string // returns the credential directory
	}
	parents := []parent{
		{"group readable", func(t *testing.T) string { return chmodded(t, 0o750) }},
		{"other writable", func(t *testing.T) string { return chmodded(t, 0o703) }},
		{"symlink to private directory", func(t *testing.T) string {
			real := privateDir(t)
			link := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(real, link); err != nil {
				t.Fatal(err)
			}
			return link
		}},
	}
	if os.Geteuid() == 0 {
		parents = append(parents, parent{"owned by another user", func(t *testing.T) string {
			dir := privateDir(t)
			if err := os.Chown(dir, nobody, nobody); err != nil {
				t.Fatal(err)
			}
			return dir
		}})
	}
	ops := map[string]func(path string) error{
		"write":   func(p string) error { return credfile.Write(p, sampleCredential(), false) },
		"replace": func(p string) error { return credfile.Write(p, sampleCredential(), true) },
		"read":    func(p string) error { _, err := credfile.Read(p); return err },
		"remove":  credfile.Remove,
	}
	for _, p := range parents {
		for opName, op := range ops {
			t.Run(p.name+"/"+opName, func(t *testing.T) {
				dir := p.setup(t)
				path := filepath.Join(dir, "cred.json")
				writeRaw(t, path, []byte("{}"), 0o600)
				err := op(path)
				requireRefusal(t, err, credfile.CodeDirectoryNotPrivate, credfile.OpValidateDirectory, path)
				if got, _ := os.ReadFile(path); string(got) != "{}" {
					t.Fatalf("file touched: %q", got)
				}
			})
		}
	}
}

func chmodded(t *testing.T, mode os.FileMode) string {
	dir := privateDir(t)
	if err := os.Chmod(dir, mode); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestReplaceRefusesSymlinkAndLeavesTargetUntouched(t *testing.T) {
	dir := privateDir(t)
	target := filepath.Join(t.TempDir(), "victim")
	writeRaw(t, target, []byte("victim"), 0o600)
	path := filepath.Join(dir, "cred.json")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	err := credfile.Write(path, sampleCredential(), true)
	requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpWrite, path)
	if got, _ := os.ReadFile(target); string(got) != "victim" {
		t.Fatalf("symlink target rewritten: %q", got)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("symlink replaced: %v", err)
	}
	requireNoTempFiles(t, dir)
}

func TestWriteWithoutReplaceTreatsDanglingSymlinkAsExisting(t *testing.T) {
	dir := privateDir(t)
	path := filepath.Join(dir, "cred.json")
	target := filepath.Join(t.TempDir(), "would-be-created")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	err := credfile.Write(path, sampleCredential(), false)
	requireRefusal(t, err, credfile.CodeFileExists, credfile.OpWrite, path)
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatalf("write followed the dangling symlink: %v", err)
	}
}

func TestReplaceRefusesNonPrivateOrForeignFileWithoutChangingIt(t *testing.T) {
	cases := []struct {
		name  string
		mode  os.FileMode
		owner int
	}{
		{"group readable file", 0o640, -1},
		{"world readable file", 0o644, -1},
	}
	if os.Geteuid() == 0 {
		cases = append(cases, struct {
			name  string
			mode  os.FileMode
			owner int
		}{"file owned by another user", 0o600, nobody})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(privateDir(t), "cred.json")
			writeRaw(t, path, []byte("old"), tc.mode)
			if tc.owner >= 0 {
				if err := os.Chown(path, tc.owner, tc.owner); err != nil {
					t.Fatal(err)
				}
			}
			err := credfile.Write(path, sampleCredential(), true)
			requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpWrite, path)
			if m := modeOf(t, path); m != tc.mode {
				t.Fatalf("mode changed to %o", m)
			}
			if got, _ := os.ReadFile(path); string(got) != "old" {
				t.Fatalf("content changed to %q", got)
			}
		})
	}
}

func TestReadReportsButNeverRepairsNonPrivateMode(t *testing.T) {
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o620} {
		path := filepath.Join(privateDir(t), "cred.json")
		if err := credfile.Write(path, sampleCredential(), false); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
		_, err := credfile.Read(path)
		requireRefusal(t, err, credfile.CodeFileNotPrivate, credfile.OpRead, path)
		if m := modeOf(t, path); m != mode {
			t.Fatalf("mode changed from %o to %o", mode, m)
		}
	}
}

func TestReadRefusesSymlinkFifoAndForeignFile(t *testing.T) {
	type setup func(t *testing.T, path string)
	valid := func(t *testing.T) []byte {
		src := filepath.Join(privateDir(t), "src.json")
		if err := credfile.Write(src, sampleCredential(), false); err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(src)
		return data
	}
	cases := map[string]setup{
		"symlink to a valid private file": func(t *testing.T, path string) {
			target := filepath.Join(privateDir(t), "real.json")
			writeRaw(t, target, valid(t), 0o600)
			if err := os.Symlink(target, path); err != nil {
				t.Fatal(err)
			}
		},
		"fifo": func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		},
	}
	if os.Geteuid() == 0 {
		cases["file owned by another user"] = func(t *testing.T, path string) {
			writeRaw(t, path, valid(t), 0o600)
			if err := os.Chown(path, nobody, nobody); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, prepare := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(privateDir(t), "cred.json")
			prepare(t, path)
			done := make(chan error, 1)
			go func() { _, err := credfile.Read(path); done <- err }()
			select {
			case err := <-done:
				requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpRead, path)
			case <-time.After(5 * time.Second):
				t.Fatal("Read blocked")
			}
		})
	}
}

func TestRemoveRefusesSymlinkAndKeepsBothEnds(t *testing.T) {
	target := filepath.Join(privateDir(t), "real.json")
	writeRaw(t, target, []byte("keep"), 0o600)
	path := filepath.Join(privateDir(t), "cred.json")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	err := credfile.Remove(path)
	requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpRemove, path)
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("symlink removed: %v", err)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, []byte("keep")) {
		t.Fatalf("target changed: %q", got)
	}
}

func TestRemoveDeletesNonPrivateOwnedFileWithoutChmod(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	writeRaw(t, path, []byte("{}"), 0o644)
	if err := credfile.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("file still present: %v", err)
	}
}

func TestRemoveRefusesForeignOwnedFile(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("creating a file owned by another uid needs root")
	}
	path := filepath.Join(privateDir(t), "cred.json")
	writeRaw(t, path, []byte("{}"), 0o600)
	if err := os.Chown(path, nobody, nobody); err != nil {
		t.Fatal(err)
	}
	err := credfile.Remove(path)
	requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpRemove, path)
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("foreign file removed: %v", err)
	}
}
