package credfile

import "github.com/agenttool/collab/core/collaberr"

// Operation names carried as the only detail of a refusal.
const (
	OpWrite             = "write_session_credential_file"
	OpRead              = "read_session_credential_file"
	OpRemove            = "remove_session_credential_file"
	OpValidateDirectory = "validate_session_credential_directory"
)

// Refusal codes returned by this package (registered in core/collaberr).
const (
	CodeDirectoryNotPrivate = collaberr.SessionDirectoryNotPrivate
	CodeFileExists          = collaberr.SessionFileExists
	CodeFileInvalid         = collaberr.SessionFileInvalid
	CodeFileNotPrivate      = collaberr.SessionFileNotPrivate
	CodePathRequired        = collaberr.SessionFilePathRequired
	CodeReadFailed          = collaberr.SessionFileReadFailed
	CodeRemoveFailed        = collaberr.SessionFileRemoveFailed
	CodeFileUnsafe          = collaberr.SessionFileUnsafe
	CodeWriteFailed         = collaberr.SessionFileWriteFailed
	CodeInvalidSessionID    = collaberr.InvalidSessionID
)

// refuse builds a refusal whose only detail is the operation. The cause of an
// OS failure is deliberately dropped: os.PathError text contains the path.
func refuse(code collaberr.Code, message, operation string) *collaberr.Error {
	return collaberr.New(code, message).With("operation", operation)
}

func errDirectoryNotPrivate() *collaberr.Error {
	return refuse(CodeDirectoryNotPrivate,
		"The session credential directory must be a real directory (not a symlink) owned by this user with no group or other access; fix its owner or mode to 0700",
		OpValidateDirectory)
}

func errFileExists() *collaberr.Error {
	return refuse(CodeFileExists,
		"A session credential file already exists at this location and will not be overwritten; end or remove that session first",
		OpWrite)
}

func errFileInvalid() *collaberr.Error {
	return refuse(CodeFileInvalid,
		"The session credential file is malformed or not in the agenttool.collab/session-file/1 format",
		OpRead)
}

func errFileNotPrivate() *collaberr.Error {
	return refuse(CodeFileNotPrivate,
		"The session credential file grants access to group or other users; restrict it to mode 0600 before resuming",
		OpRead)
}

func errReadFailed() *collaberr.Error {
	return refuse(CodeReadFailed,
		"The session credential file could not be read; check that it exists and is valid JSON",
		OpRead)
}

func errRemoveFailed() *collaberr.Error {
	return refuse(CodeRemoveFailed,
		"The session has ended, but its revoked credential file could not be deleted; delete it by hand",
		OpRemove)
}

func errWriteFailed() *collaberr.Error {
	return refuse(CodeWriteFailed,
		"The session credential file could not be written atomically; check free space and directory permissions",
		OpWrite)
}

func errUnsafeRead() *collaberr.Error {
	return refuse(CodeFileUnsafe,
		"The session credential path must be a regular file owned by this user, not a symlink or other special file",
		OpRead)
}

func errUnsafeReplace() *collaberr.Error {
	return refuse(CodeFileUnsafe,
		"Only a private regular credential file owned by this user may be replaced; the existing path is not one",
		OpWrite)
}

func errUnsafeRemove() *collaberr.Error {
	return refuse(CodeFileUnsafe,
		"The session credential path is not a regular file owned by this user, so it was left in place",
		OpRemove)
}

func errPathRequired() *collaberr.Error {
	return collaberr.New(CodePathRequired,
		"An in-memory database has no directory to hold credential files; name an explicit credential file path")
}

func errInvalidSessionID() *collaberr.Error {
	return collaberr.New(CodeInvalidSessionID, "session_id contains unsupported characters")
}
