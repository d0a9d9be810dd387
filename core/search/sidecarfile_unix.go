//go:build unix

package search

import "syscall"

// openNoFollow makes opening the sidecar fail on a symlink instead of
// following it, and not block on a FIFO planted at its path.
const openNoFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
