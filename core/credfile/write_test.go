package credfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
)

func TestWriteThenReadRoundTripsWithAndWithoutCursor(t *testing.T) {
	withCursor := sampleCredential()
	without := sampleCredential()
	without.LastCursor = nil
	without.Generation = 7
	for name, c := range map[string]credfile.Credential{"with cursor": withCursor, "without cursor": without} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(privateDir(t), "cred.json")
			if err := credfile.Write(path, c, false); err != nil {
				t.Fatal(err)
			}
			got, err := credfile.Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if got.SessionID != c.SessionID || got.Token != c.Token || got.Generation != c.Generation ||
				(got.LastCursor == nil) != (c.LastCursor == nil) ||
				(c.LastCursor != nil && *got.LastCursor != *c.LastCursor) {
				t.Fatalf("read %+v, wrote %+v", got, c)
			}
		})
	}
}

func TestWriteProducesCompactOrderedJSONLine(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	if err := credfile.Write(path, sampleCredential(), false); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := `{"format":"agenttool.collab/session-file/1","session_id":"session_00000000-0000-4000-8000-000000000001",` +
		`"session_token":"` + testToken + `","generation":1,"last_cursor":{"epoch_id":"epoch_00000000-0000-4000-8000-000000000002",` +
		`"sequence":0,"hash":"` + strings.Repeat("0", 64) + `"}}` + "\n"
	if string(got) != want {
		t.Fatalf("file content\n got %s\nwant %s", got, want)
	}
}

func TestWriteCreatesMissingDirectoriesAndLeavesNoTempFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b", credfile.DirName)
	path := filepath.Join(dir, "cred.json")
	if err := credfile.Write(path, sampleCredential(), false); err != nil {
		t.Fatal(err)
	}
	if _, err := credfile.Read(path); err != nil {
		t.Fatalf("written file is not readable back: %v", err)
	}
	requireNoTempFiles(t, dir)
}

func TestWriteWithoutReplaceRefusesAnyExistingPath(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	original := []byte("occupied\n")
	writeRaw(t, path, original, 0o600)
	err := credfile.Write(path, sampleCredential(), false)
	requireRefusal(t, err, credfile.CodeFileExists, credfile.OpWrite, path)
	if got, _ := os.ReadFile(path); !bytes.Equal(got, original) {
		t.Fatalf("existing file changed to %q", got)
	}
	requireNoTempFiles(t, filepath.Dir(path))
}

func TestWriteWithReplaceSwapsPrivateFileAtomically(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	first := sampleCredential()
	if err := credfile.Write(path, first, false); err != nil {
		t.Fatal(err)
	}
	next := first
	next.Generation = 2
	next.LastCursor = &credfile.Cursor{EpochID: first.LastCursor.EpochID, Sequence: 3, Hash: strings.Repeat("a", 64)}
	if err := credfile.Write(path, next, true); err != nil {
		t.Fatal(err)
	}
	got, err := credfile.Read(path)
	if err != nil || got.Generation != 2 || got.LastCursor.Sequence != 3 {
		t.Fatalf("after replace read %+v, %v", got, err)
	}
	requireNoTempFiles(t, filepath.Dir(path))
}

func TestWriteWithReplaceRefusesDirectoryAtPath(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	err := credfile.Write(path, sampleCredential(), true)
	requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpWrite, path)
}

func TestWriteFailsCleanlyWhenDirectoryCannotBeCreated(t *testing.T) {
	blocker := filepath.Join(t.TempDir(), "plain-file")
	writeRaw(t, blocker, []byte("x"), 0o600)
	path := filepath.Join(blocker, credfile.DirName, "cred.json")
	err := credfile.Write(path, sampleCredential(), false)
	requireRefusal(t, err, credfile.CodeWriteFailed, credfile.OpWrite, path)
}

// TestConcurrentWritersWithoutReplaceHaveExactlyOneWinner proves the
// no-replace path publishes with link(2): racing writers never overwrite one
// another, the losers get session_file_exists, and no temp file survives.
func TestConcurrentWritersWithoutReplaceHaveExactlyOneWinner(t *testing.T) {
	dir := privateDir(t)
	path := filepath.Join(dir, "cred.json")
	const writers = 8
	errs := make([]error, writers)
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			c := sampleCredential()
			c.Generation = int64(i + 1)
			errs[i] = credfile.Write(path, c, false)
		})
	}
	wg.Wait()
	winners := 0
	for _, err := range errs {
		switch {
		case err == nil:
			winners++
		case !collaberr.HasCode(err, credfile.CodeFileExists):
			t.Fatalf("unexpected error: %v", err)
		}
	}
	if winners != 1 {
		t.Fatalf("%d writers succeeded, want exactly 1", winners)
	}
	if _, err := credfile.Read(path); err != nil {
		t.Fatalf("winner's file unreadable: %v", err)
	}
	requireNoTempFiles(t, dir)
}

func TestRewriteReplacesAtomicallyWithTheSameProtections(t *testing.T) {
	dir := privateDir(t)
	path := filepath.Join(dir, "session_rw.json")
	first := credfile.Credential{SessionID: "session_rw", Token: "tok-1", Generation: 1}
	if err := credfile.Write(path, first, false); err != nil {
		t.Fatal(err)
	}
	second := first
	second.LastCursor = &credfile.Cursor{EpochID: "epoch_x", Sequence: 3, Hash: strings.Repeat("a", 64)}
	if err := credfile.Rewrite(path, second); err != nil {
		t.Fatal(err)
	}
	got, err := credfile.Read(path)
	if err != nil || got.LastCursor == nil || got.LastCursor.Sequence != 3 {
		t.Fatalf("rewrite not visible: %+v %v", got, err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("rewritten file mode %v", info.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("rewrite left %d entries behind", len(entries))
	}
}

func TestSweepTempsRemovesOnlyThisSessionsLeftovers(t *testing.T) {
	dir := privateDir(t)
	mine := filepath.Join(dir, "session_a.json")
	leftovers := []string{mine + ".tmp-0123abcd", mine + ".tmp-ffff"}
	others := []string{filepath.Join(dir, "session_b.json.tmp-0123"), mine}
	for _, p := range append(append([]string{}, leftovers...), others...) {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	credfile.SweepTemps(mine)
	for _, p := range leftovers {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s survived the sweep", filepath.Base(p))
		}
	}
	for _, p := range others {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
}
