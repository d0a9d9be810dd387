// Package pack reads the files of a release: the npm tarball (a gzipped tar
// whose entries sit under "package/") and the GoReleaser archives (tar.gz for
// Unix, zip for Windows), reporting each regular file's mode and digests.
package pack

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/agenttool/collab/release/internal/digest"
)

// File is one regular file found in a tarball or archive.
type File struct {
	Mode fs.FileMode // permission bits only
	Sums digest.Sums
}

// Contents maps a slash path to the file found there.
type Contents map[string]File

// ReadNPM reads an npm tarball. Paths are returned without the "package/"
// prefix. Anything but regular files, a path outside package/, or a path seen
// twice is an error: hosts unpack these tarballs and must get exactly the
// listed files.
func ReadNPM(tgz string) (Contents, error) {
	f, err := os.Open(tgz)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tgz, err)
	}
	out := Contents{}
	err = walkTar(zr, func(name string, mode fs.FileMode, r io.Reader) error {
		rel, ok := strings.CutPrefix(name, "package/")
		if !ok || rel == "" {
			return fmt.Errorf("entry %q is outside package/", name)
		}
		return add(out, rel, mode, r)
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tgz, err)
	}
	return out, nil
}

// ReadArchive reads a GoReleaser archive, choosing the format by extension.
func ReadArchive(file string) (Contents, error) {
	var (
		out = Contents{}
		err error
	)
	switch {
	case strings.HasSuffix(file, ".tar.gz"):
		err = readTarGz(file, out)
	case strings.HasSuffix(file, ".zip"):
		err = readZip(file, out)
	default:
		err = errors.New("unknown archive format")
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return out, nil
}

func readTarGz(file string, out Contents) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return walkTar(zr, func(name string, mode fs.FileMode, r io.Reader) error {
		return add(out, name, mode, r)
	})
}

func walkTar(r io.Reader, fn func(name string, mode fs.FileMode, r io.Reader) error) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		if h.Typeflag != tar.TypeReg {
			return fmt.Errorf("entry %q is not a regular file", h.Name)
		}
		if err := fn(h.Name, fs.FileMode(h.Mode).Perm(), tr); err != nil {
			return err
		}
	}
}

func readZip(file string, out Contents) error {
	zr, err := zip.OpenReader(file)
	if err != nil {
		return err
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if zf.FileInfo().IsDir() {
			continue
		}
		if !zf.Mode().IsRegular() {
			return fmt.Errorf("entry %q is not a regular file", zf.Name)
		}
		rc, err := zf.Open()
		if err != nil {
			return err
		}
		err = add(out, zf.Name, zf.Mode().Perm(), rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

func add(out Contents, name string, mode fs.FileMode, r io.Reader) error {
	if path.Clean(name) != name || path.IsAbs(name) || strings.HasPrefix(name, "../") {
		return fmt.Errorf("entry %q is not a clean relative path", name)
	}
	if _, dup := out[name]; dup {
		return fmt.Errorf("entry %q appears twice", name)
	}
	s, err := digest.Of(r)
	if err != nil {
		return fmt.Errorf("read %s: %w", name, err)
	}
	out[name] = File{Mode: mode, Sums: s}
	return nil
}
