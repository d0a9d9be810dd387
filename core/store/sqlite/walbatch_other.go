//go:build !linux

package sqlite

// walBatchVFS names no VFS where the WAL-batching VFS is not built: the
// write connections use the default VFS. Its reasoning holds for any VFS,
// but it is exercised by the tests on Linux only.
func walBatchVFS() string { return "" }
