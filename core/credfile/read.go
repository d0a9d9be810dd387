package credfile

import (
	"io"
	"os"
)

// maxFileBytes bounds how much of a credential file is read. A genuine file
// is about 350 bytes; anything past this bound is not a credential file.
const maxFileBytes = 1 << 20

// Read loads the credential at path after checking that nothing but this
// user can have read or swapped it.
//
// The parent directory must be private (session_directory_not_private); the
// file must be a regular file, not a symlink, owned by this user
// (session_file_unsafe) and closed to group and other users
// (session_file_not_private — the mode is reported, never repaired). Content
// that is JSON of the wrong shape is session_file_invalid: format must be
// exactly Format, session_id and session_token strings, generation an
// integer ≥ 1, and a last_cursor member, when present at all (null included),
// an object with a string epoch_id, an integer sequence ≥ 0 and a 64-digit
// lowercase hex hash. Anything else that goes wrong — a missing file or
// directory, text that is not JSON, a file over 1 MiB — is
// session_file_read_failed.
func Read(path string) (Credential, error) {
	if err := checkDirectory(path, errReadFailed()); err != nil {
		return Credential{}, err
	}
	data, err := readPrivateFile(path)
	if err != nil {
		return Credential{}, err
	}
	return decode(data)
}

// readPrivateFile checks path with Lstat, then opens it without following
// links and confirms the descriptor is the same file that was checked.
func readPrivateFile(path string) ([]byte, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, errReadFailed()
	}
	if !isOwnedRegularFile(before) {
		return nil, errUnsafeRead()
	}
	if !privateMode(before) {
		return nil, errFileNotPrivate()
	}
	f, err := openNoFollow(path)
	if err != nil {
		return nil, errReadFailed()
	}
	defer f.Close()
	after, err := f.Stat()
	if err != nil {
		return nil, errReadFailed()
	}
	if !os.SameFile(before, after) || !after.Mode().IsRegular() {
		return nil, errUnsafeRead()
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil || len(data) > maxFileBytes {
		return nil, errReadFailed()
	}
	return data, nil
}
