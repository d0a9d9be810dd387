package credfile_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
)

// TestReadAcceptsValidFilesAndRewritesThemCanonically reads every
// testdata/valid/*.json from a private directory and checks that writing
// the result back produces exactly the matching .golden bytes. For the file
// written by the reference server (reference_v040) the golden is the input.
func TestReadAcceptsValidFilesAndRewritesThemCanonically(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join("testdata", "valid", "*.json"))
	if len(inputs) == 0 {
		t.Fatal("no testdata/valid cases")
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".json")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			golden, err := os.ReadFile(strings.TrimSuffix(in, ".json") + ".golden")
			if err != nil {
				t.Fatal(err)
			}
			dir := privateDir(t)
			src := filepath.Join(dir, "in.json")
			writeRaw(t, src, data, 0o600)
			c, err := credfile.Read(src)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			out := filepath.Join(dir, "out.json")
			if err := credfile.Write(out, c, false); err != nil {
				t.Fatalf("Write: %v", err)
			}
			got, _ := os.ReadFile(out)
			if !bytes.Equal(got, golden) {
				t.Fatalf("rewritten file\n got %s\nwant %s", got, golden)
			}
		})
	}
}

// TestReadRefusesMalformedContent maps every testdata/invalid file to
// session_file_invalid and every testdata/unreadable file (not JSON at all)
// to session_file_read_failed.
func TestReadRefusesMalformedContent(t *testing.T) {
	for dir, code := range map[string]collaberr.Code{
		"invalid":    credfile.CodeFileInvalid,
		"unreadable": credfile.CodeReadFailed,
	} {
		inputs, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		if len(inputs) == 0 {
			t.Fatalf("no testdata/%s cases", dir)
		}
		for _, in := range inputs {
			t.Run(dir+"/"+filepath.Base(in), func(t *testing.T) {
				data, err := os.ReadFile(in)
				if err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(privateDir(t), "cred.json")
				writeRaw(t, path, data, 0o600)
				_, err = credfile.Read(path)
				requireRefusal(t, err, code, credfile.OpRead, path)
			})
		}
	}
}

func TestReadOfMissingFileOrDirectoryIsReadFailed(t *testing.T) {
	dir := privateDir(t)
	for _, path := range []string{
		filepath.Join(dir, "absent.json"),
		filepath.Join(dir, "no-such-dir", "absent.json"),
	} {
		_, err := credfile.Read(path)
		requireRefusal(t, err, credfile.CodeReadFailed, credfile.OpRead, path)
	}
}

func TestReadRefusesDirectoryAtCredentialPath(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	if err := os.Mkdir(path, 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := credfile.Read(path)
	requireRefusal(t, err, credfile.CodeFileUnsafe, credfile.OpRead, path)
}

func TestReadRefusesFileOverOneMebibyte(t *testing.T) {
	path := filepath.Join(privateDir(t), "cred.json")
	body := `{"format":"agenttool.collab/session-file/1","session_id":"s","session_token":"t","generation":1,"pad":"` +
		strings.Repeat("x", 1<<20) + `"}`
	writeRaw(t, path, []byte(body), 0o600)
	_, err := credfile.Read(path)
	requireRefusal(t, err, credfile.CodeReadFailed, credfile.OpRead, path)
}
