// Package fileowner is collab's one answer to "does this file belong to
// me?", asked before the database, its SQLite sidecars and the session
// credential files are trusted, and to "how many names does it have?".
// CheckPrivate combines them into the credential-file rule (a regular
// file of mine, closed to others, one link, not a symlink) that the
// session credential files and the serve token file share.
//
// The owner is the process's real uid (getuid), the uid the reference
// implementation compares with (process.getuid), so both implementations
// accept and refuse the same files. For a process that is not setuid the
// real and effective uids are equal, and the effective uid is the one
// that owns every file the process creates.
//
// Platforms without POSIX ownership (Windows) cannot observe an owner or
// a link count through fs.FileInfo: there every file counts as the user's
// and as having one name, and access control is left to the ACLs.
package fileowner
