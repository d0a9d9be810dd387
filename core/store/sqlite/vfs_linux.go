package sqlite

import (
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// The VFSs of this package (read-ahead, WAL batching) are each the default
// VFS with its xOpen replaced: the replacement opens the file through the
// default VFS and, for the files it is for, points the file's methods at a
// copy of the default ones with some replaced. That copy, and whatever
// else the VFS keeps per file, lives after the default VFS's file object
// in the allocation SQLite makes for each open file (the VFS asks for the
// room), so nothing of it is in Go's heap.

// wrappedFile begins every wrapper's per-file state. methods comes first:
// the file's pMethods points at it, which is how each method finds the
// rest of the state.
type wrappedFile struct {
	methods sqlite3.Tsqlite3_io_methods
	orig    uintptr // the default VFS's methods for this file
}

// adopt copies file's methods (the default VFS's) for the wrapper to
// replace some of; the wrapper then points file.FpMethods at its state.
func (w *wrappedFile) adopt(file *sqlite3.Tsqlite3_file) {
	w.methods = *(*sqlite3.Tsqlite3_io_methods)(cmem(file.FpMethods))
	w.orig = file.FpMethods
}

// origMethods is the default VFS's methods for the file.
func (w *wrappedFile) origMethods() *sqlite3.Tsqlite3_io_methods {
	return (*sqlite3.Tsqlite3_io_methods)(cmem(w.orig))
}

// openFunc is the C signature of a VFS's xOpen.
type openFunc = func(tls *libc.TLS, pVfs, zName, pFile uintptr, flags int32, pOutFlags uintptr) int32

// wrappedVFS is a registered VFS followed by the default VFS it wraps, in
// one allocation that is never freed.
type wrappedVFS struct {
	vfs  sqlite3.Tsqlite3_vfs
	orig uintptr
}

// registerWrapper registers, under name, the default VFS with xOpen
// replaced by open and room for size more bytes per file, aligned to
// align, after the default VFS's file object. It reports name, or "" when
// the VFS could not be registered. SQLite's VFS list is process-wide:
// each wrapper is registered once (callers hold it in a sync.OnceValue).
func registerWrapper(name string, size, align uintptr, open openFunc) string {
	tls := libc.NewTLS()
	defer tls.Close()
	orig := sqlite3.Xsqlite3_vfs_find(tls, 0)
	if orig == 0 {
		return ""
	}
	mem := sqlite3.Xsqlite3_malloc64(tls, uint64(unsafe.Sizeof(wrappedVFS{})))
	cname, err := libc.CString(name)
	if mem == 0 || err != nil {
		return ""
	}
	obj := (*wrappedVFS)(cmem(mem))
	obj.vfs = *(*sqlite3.Tsqlite3_vfs)(cmem(orig))
	obj.orig = orig
	obj.vfs.FpNext = 0
	obj.vfs.FzName = cname
	obj.vfs.FszOsFile = int32(stateOffset(obj.vfs.FszOsFile, align) + size)
	*(*openFunc)(unsafe.Pointer(&obj.vfs.FxOpen)) = open
	if sqlite3.Xsqlite3_vfs_register(tls, mem, 0) != sqlite3.SQLITE_OK {
		return ""
	}
	return name
}

// stateOffset is where a wrapper's per-file state, aligned to align,
// starts after a file object of the default VFS of n bytes.
func stateOffset(n int32, align uintptr) uintptr {
	return (uintptr(n) + align - 1) &^ (align - 1)
}

// openWrapped opens a file of the wrapper pVfs through the default VFS and
// returns the default VFS's result, the file object, and the address of
// the wrapper's state for it (aligned to align).
func openWrapped(tls *libc.TLS, pVfs, zName, pFile uintptr, flags int32, pOutFlags uintptr, align uintptr) (int32, *sqlite3.Tsqlite3_file, uintptr) {
	obj := (*wrappedVFS)(cmem(pVfs))
	origVFS := (*sqlite3.Tsqlite3_vfs)(cmem(obj.orig))
	rc := (*(*openFunc)(unsafe.Pointer(&origVFS.FxOpen)))(tls, obj.orig, zName, pFile, flags, pOutFlags)
	return rc, (*sqlite3.Tsqlite3_file)(cmem(pFile)), pFile + stateOffset(origVFS.FszOsFile, align)
}
