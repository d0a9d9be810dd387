package tokens

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/agenttool/collab/core/fileowner"
)

// maxFileBytes bounds how much of a token file is read: a genuine one holds
// about 150 bytes per client.
const maxFileBytes = 4 << 20

// ErrUnsafeFile matches (errors.Is) every UnsafeFileError.
var ErrUnsafeFile = errors.New("the token file is not a private file of this user")

// UnsafeFileError says why a token file is not trusted: it breaks the
// credential-file rule of core/fileowner (a regular file, not a symlink,
// owned by this user, no group or other permission bits, one link). Anyone
// who could write such a file could have planted a hash in it, so while it
// stands no token admits anyone. The message names the file by its base
// name only, never by its path.
type UnsafeFileError struct {
	Fault fileowner.Fault
	// Mode is the file's permission bits, shown when Fault is OpenToOthers.
	Mode fs.FileMode
}

func (e *UnsafeFileError) Error() string {
	what := e.Fault.String()
	if e.Fault == fileowner.OpenToOthers {
		what = fmt.Sprintf("%s (mode %04o)", what, e.Mode.Perm())
	}
	return fmt.Sprintf("token file %s is %s, so no client is admitted; someone else may have written it: remove it and add tokens again with `token add` (doctor names it)",
		FileName, what)
}

// Is makes errors.Is(err, ErrUnsafeFile) hold.
func (e *UnsafeFileError) Is(target error) bool { return target == ErrUnsafeFile }

// faultOf returns an UnsafeFileError for info, or nil when info is private.
func faultOf(info fs.FileInfo) error {
	if f := fileowner.CheckPrivate(info); f != fileowner.Private {
		return &UnsafeFileError{Fault: f, Mode: info.Mode()}
	}
	return nil
}

// Check reports whether the token file at path would be trusted: nil when
// it is absent or a private file of this user, an *UnsafeFileError when it
// breaks the rule, another error when it cannot be inspected.
func Check(path string) error {
	_, err := readTrusted(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// readTrusted returns the content of the token file at path after checking
// the name with Lstat and the opened descriptor with Stat (opened without
// following links, so a file swapped in between is caught). A missing file
// is fs.ErrNotExist. No error names the path.
func readTrusted(path string) ([]byte, error) {
	before, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, pathless("inspect", err)
	}
	if err := faultOf(before); err != nil {
		return nil, err
	}
	f, err := fileowner.OpenNoFollow(path)
	if err != nil {
		return nil, pathless("open", err)
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, pathless("inspect", err)
	}
	if !os.SameFile(before, after) {
		return nil, fmt.Errorf("token file %s was replaced while it was checked; no client is admitted until it holds still", FileName)
	}
	if err := faultOf(after); err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return nil, pathless("read", err)
	}
	if len(raw) > maxFileBytes {
		return nil, fmt.Errorf("token file %s is larger than %d bytes; it is not a token file", FileName, maxFileBytes)
	}
	return raw, nil
}

// pathless wraps an OS failure without the path an *os.PathError carries.
func pathless(op string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s token file %s: %w", op, FileName, err)
}
