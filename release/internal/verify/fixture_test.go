package verify

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/agenttool/collab/release/internal/checksums"
	"github.com/agenttool/collab/release/internal/digest"
	"github.com/agenttool/collab/release/internal/pkgjson"
	"github.com/agenttool/collab/release/internal/provenance"
	"github.com/agenttool/collab/release/internal/provenance/provenancetest"
	"github.com/agenttool/collab/release/internal/target"
)

const (
	testTag     = "v1.2.3"
	testVersion = "1.2.3"
	testPackage = "@agenttool/collab-mcp"
	testTgz     = "agenttool-collab-mcp-1.2.3.tgz"
)

var testSigner = provenancetest.Identity{
	Repo:     "agenttool/collab",
	Workflow: ".github/workflows/release.yml",
	Ref:      "refs/tags/" + testTag,
	Commit:   "0123456789abcdef0123456789abcdef01234567",
	Issuer:   provenance.Issuer,
}

// file is one file of a fake package or archive.
type file struct {
	mode fs.FileMode
	data []byte
}

// fakeRelease describes how to build a release for one test case; the zero
// value is a correct release.
type fakeRelease struct {
	packageJSON   []byte                   // replaces the rendered package.json
	npmEdit       func(map[string]file)    // edits the npm package before packing
	archiveBinary map[target.Target][]byte // replaces a binary in its archive
	dropTgzSum    bool                     // leave the tarball out of checksums.txt
}

// binary returns fake binary bytes for t. The host's is a script that prints
// the version, so the --version check can run it.
func binary(t target.Target) []byte {
	if t.GOOS == runtime.GOOS && t.GOARCH == runtime.GOARCH && runtime.GOOS != "windows" {
		return []byte("#!/bin/sh\necho 'agenttool-collab-mcp " + testVersion + "'\n")
	}
	return []byte("binary for " + t.String() + "\n")
}

func (f fakeRelease) npmFiles(t *testing.T) map[string]file {
	pj := f.packageJSON
	if pj == nil {
		tmpl, err := pkgjson.Decode(mustRead(t, "testdata/root/npm/package.json"))
		if err != nil {
			t.Fatal(err)
		}
		pj, _ = pkgjson.Render(tmpl, testVersion, nil)
	}
	files := map[string]file{
		"package.json":                {0o644, pj},
		"LICENSE":                     {0o644, mustRead(t, "testdata/root/LICENSE")},
		"bin/agenttool-collab-mcp":    {0o755, mustRead(t, "testdata/root/npm/launcher.sh")},
		"bin/agenttool-collab-mcp.js": {0o755, mustRead(t, "testdata/root/npm/launcher.js")},
	}
	for _, tg := range target.All {
		files["bin/"+tg.NPMPlatform()+"/"+tg.Exe()] = file{0o755, binary(tg)}
	}
	if f.npmEdit != nil {
		f.npmEdit(files)
	}
	return files
}

// build writes the npm tarball (dir/npm) and the Release assets
// (dir/release) and returns the tarball's path.
func (f fakeRelease) build(t *testing.T, dir string) string {
	t.Helper()
	npmDir, relDir := filepath.Join(dir, "npm"), filepath.Join(dir, "release")
	for _, d := range []string{npmDir, relDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tgz := targz(t, "package/", f.npmFiles(t))
	sums := checksums.File{}
	for _, tg := range target.All {
		bin := binary(tg)
		if b, ok := f.archiveBinary[tg]; ok {
			bin = b
		}
		content := map[string]file{tg.Exe(): {0o755, bin}, "LICENSE": {0o644, []byte("test license text\n")}}
		var data []byte
		if tg.GOOS == "windows" {
			data = zipped(t, content)
		} else {
			data = targz(t, "", content)
		}
		name := ArchiveName(tg, testVersion)
		write(t, filepath.Join(relDir, name), data)
		sums[name] = digest.Bytes(data).SHA256Hex()
	}
	write(t, filepath.Join(relDir, testTgz), tgz)
	if !f.dropTgzSum {
		sums[testTgz] = digest.Bytes(tgz).SHA256Hex()
	}
	write(t, filepath.Join(relDir, "checksums.txt"), sums.Bytes())
	npmTgz := filepath.Join(npmDir, testTgz)
	write(t, npmTgz, tgz)
	return npmTgz
}

func targz(t *testing.T, prefix string, files map[string]file) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		f := files[name]
		h := &tar.Header{Name: prefix + name, Mode: int64(f.mode), Size: int64(len(f.data)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

func zipped(t *testing.T, files map[string]file) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(files[name].mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(files[name].data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
