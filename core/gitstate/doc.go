// Package gitstate answers two questions about a directory on this machine:
// which repository and worktree it belongs to (Inspect,
// docs/contract.md#repository-identity), and what local Git state that
// worktree is in right now (Capture, checkpoint algorithm "git-state/v1",
// docs/contract.md#git-checkpoints). "The contract" in this package's
// comments means those sections; step numbers are theirs.
//
// For a repository that configures no program Git would run (filters,
// textconv, see docs/compatibility.md) every identifier and digest it
// produces is byte-for-byte the one the reference implementation derives from
// the same directory, because both are compared. The package observes Git by
// running the git executable with empty stdin, discarded stderr, a time limit
// and an output cap; it reads untracked files itself. The repository is
// treated as hostile (harden.go): no git call can run a program that the
// repository's configuration, its attributes or an inherited GIT_* variable
// names, and none takes index.lock or writes to the repository.
//
// Text that the reference holds as JavaScript strings (paths, branch names,
// untracked file names) is decoded here the way a JavaScript engine decodes
// UTF-8, each ill-formed sequence becoming U+FFFD, on the assumption that the
// reference handles names that are not valid UTF-8 as such strings.
package gitstate
