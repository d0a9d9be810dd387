package pack

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
)

// maxFileBytes bounds ReadNPMFile, which is meant for small text files.
const maxFileBytes = 1 << 20

// ReadNPMFile returns the contents of one small file of an npm tarball
// (path relative to package/).
func ReadNPMFile(tgz, name string) ([]byte, error) {
	var out []byte
	err := findNPM(tgz, name, func(r io.Reader) error {
		var err error
		out, err = io.ReadAll(io.LimitReader(r, maxFileBytes+1))
		if err == nil && len(out) > maxFileBytes {
			err = fmt.Errorf("%s is larger than %d bytes", name, maxFileBytes)
		}
		return err
	})
	return out, err
}

// ExtractNPMFile copies one file of an npm tarball (path relative to
// package/) to dst with mode 0755, so it can be run.
func ExtractNPMFile(tgz, name, dst string) error {
	return findNPM(tgz, name, func(r io.Reader) error {
		out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
		if err != nil {
			return err
		}
		if _, err := io.Copy(out, r); err != nil {
			out.Close()
			return fmt.Errorf("extract %s: %w", name, err)
		}
		return out.Close()
	})
}

func findNPM(tgz, name string, use func(io.Reader) error) error {
	f, err := os.Open(tgz)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return fmt.Errorf("%s: %w", tgz, err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%s has no package/%s", tgz, name)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tgz, err)
		}
		if h.Name == "package/"+name && h.Typeflag == tar.TypeReg {
			return use(tr)
		}
	}
}
