// Package credfile reads, writes and removes the host-only session
// credential file (format agenttool.collab/session-file/1) that lets a
// restarted MCP process resume a credential-bound collaboration session, and
// hashes the bearer token it carries.
//
// The file is a local bearer secret. Every function here therefore keeps two
// promises: the file and its directory stay private to the current user
// (directory 0700, file 0600, no symlinks, owned by this uid), and no refusal
// ever names the path or the token — each carries only an "operation" detail,
// so an error can be shown to a model without leaking where the secret lives.
//
// Platform notes: on Unix ownership means "owned by the real uid" (the one
// owner check, core/fileowner) and privacy means "no group or other
// permission bits". Windows has neither uid ownership nor POSIX permission
// bits in os.FileMode, so there the owner and mode checks are skipped and
// only the "regular file, not a symlink, real directory" checks remain;
// access control is left to the directory's ACL.
package credfile
