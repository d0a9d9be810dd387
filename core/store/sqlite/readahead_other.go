//go:build !linux

package sqlite

// readAheadVFS names no VFS where the read-ahead VFS is not built: the
// direct connections read through the default VFS. Its reasoning holds for
// any VFS, but it is exercised by the tests on Linux only.
func readAheadVFS() string { return "" }
