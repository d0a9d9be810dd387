package sqlite

import (
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// readAheadName is the name the read-ahead VFS is registered under.
const readAheadName = "collab-readahead"

// readAheadChunk is how much of the database file one read of the
// read-ahead VFS fetches. A journal's pages lie between those of the other
// tables written beside each event, so a full read of one journal touches
// about one page in three of its part of the file; here one pread of 4 KiB
// costs about 2 µs and one of 128 KiB about 20 µs, so reading the whole
// range in chunks costs less than reading a third of its pages one by one.
const readAheadChunk = 128 << 10

// readAheadVFS registers the read-ahead VFS on first use and reports its
// name, or "" when it could not be registered (the direct connections then
// read through the default VFS). The registration is process-wide, as
// SQLite's VFS list is, and happens once.
var readAheadVFS = sync.OnceValue(registerReadAhead)

// The read-ahead VFS is the default VFS with one change, for the main
// database files of the direct read connections: a read that misses fetches
// readAheadChunk bytes from its offset on into a buffer, and the reads that
// follow are served from it while it holds their bytes.
//
// Why that never serves stale bytes: the buffer is emptied at every lock
// call (xLock, xUnlock, xShmLock), at every write or truncation, and at
// close, so a page served from it was read from the file within the same
// lock state as the request. In WAL mode a reader holds its read lock for
// the whole read transaction, and SQLite reads a page from the database
// file only when the WAL holds no frame of that page up to the reader's
// snapshot; a checkpoint copies into the database file only frames up to
// the oldest reader's snapshot, so it never rewrites a page a reader takes
// from the file. That is what lets SQLite's own page cache keep pages for
// the length of a transaction; the buffer is kept for no longer. A file
// opened immutable is promised not to change at all.

// readAheadFile is what the VFS keeps after the default VFS's file object,
// inside the allocation SQLite makes for each open file.
type readAheadFile struct {
	wrappedFile
	buf uintptr // readAheadChunk bytes of SQLite's memory, 0 until the first fill
	off int64   // the file offset of buf's first byte
	n   int64   // how many bytes of buf hold the file's (0: empty)
}

func registerReadAhead() string {
	return registerWrapper(readAheadName, unsafe.Sizeof(readAheadFile{}), unsafe.Alignof(readAheadFile{}), readAheadOpen)
}

// readAheadOpen opens a file through the default VFS and, for a main
// database file, routes its reads, locks and close through this VFS.
func readAheadOpen(tls *libc.TLS, pVfs, zName, pFile uintptr, flags int32, pOutFlags uintptr) int32 {
	rc, file, state := openWrapped(tls, pVfs, zName, pFile, flags, pOutFlags, unsafe.Alignof(readAheadFile{}))
	if rc != sqlite3.SQLITE_OK || flags&sqlite3.SQLITE_OPEN_MAIN_DB == 0 || file.FpMethods == 0 {
		return rc
	}
	st := (*readAheadFile)(cmem(state))
	*st = readAheadFile{}
	st.adopt(file)
	m := &st.methods
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxClose)) = readAheadClose
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxRead)) = readAheadRead
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxWrite)) = readAheadWrite
	*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&m.FxTruncate)) = readAheadTruncate
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxLock)) = readAheadLock
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxUnlock)) = readAheadUnlock
	if m.FiVersion >= 2 && m.FxShmLock != 0 {
		*(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&m.FxShmLock)) = readAheadShmLock
	}
	file.FpMethods = state
	return rc
}

// stateOf is the readAheadFile of a file this VFS opened as a main
// database.
func stateOf(pFile uintptr) *readAheadFile {
	return (*readAheadFile)(cmem((*sqlite3.Tsqlite3_file)(cmem(pFile)).FpMethods))
}

// forget empties the buffer.
func (st *readAheadFile) forget() { st.n = 0 }

func readAheadRead(tls *libc.TLS, pFile, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	st := stateOf(pFile)
	want := int64(iAmt)
	if st.n == 0 || iOfst < st.off || iOfst+want > st.off+st.n {
		if want > readAheadChunk/2 || !st.fill(tls, pFile, iOfst) || iOfst+want > st.off+st.n {
			return origRead(tls, st, pFile, zBuf, iAmt, iOfst)
		}
	}
	dst := unsafe.Slice((*byte)(cmem(zBuf)), want)
	copy(dst, unsafe.Slice((*byte)(cmem(st.buf+uintptr(iOfst-st.off))), want))
	return sqlite3.SQLITE_OK
}

// fill reads readAheadChunk bytes from off into the buffer, or those up to
// the end of the file; false when the read fails, in which case the buffer
// is empty and the request goes to the default VFS as it came.
func (st *readAheadFile) fill(tls *libc.TLS, pFile uintptr, off int64) bool {
	st.forget()
	if st.buf == 0 {
		if st.buf = sqlite3.Xsqlite3_malloc64(tls, readAheadChunk); st.buf == 0 {
			return false
		}
	}
	switch origRead(tls, st, pFile, st.buf, readAheadChunk, off) {
	case sqlite3.SQLITE_OK:
		st.off, st.n = off, readAheadChunk
		return true
	case sqlite3.SQLITE_IOERR_SHORT_READ:
		// The end of the file is within the chunk. Read again exactly up
		// to it: the short read zero-filled the rest, and the file may
		// have grown since.
		size, ok := st.size(tls, pFile)
		if ok && size > off && size-off < readAheadChunk &&
			origRead(tls, st, pFile, st.buf, int32(size-off), off) == sqlite3.SQLITE_OK {
			st.off, st.n = off, size-off
			return true
		}
	}
	return false
}

// size is the file's size in bytes, from the default VFS.
func (st *readAheadFile) size(tls *libc.TLS, pFile uintptr) (int64, bool) {
	m := st.origMethods()
	out := tls.Alloc(8)
	defer tls.Free(8)
	if (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxFileSize)))(tls, pFile, out) != sqlite3.SQLITE_OK {
		return 0, false
	}
	return *(*int64)(cmem(out)), true
}

func origRead(tls *libc.TLS, st *readAheadFile, pFile, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxRead)))(tls, pFile, zBuf, iAmt, iOfst)
}

func readAheadClose(tls *libc.TLS, pFile uintptr) int32 {
	st := stateOf(pFile)
	st.forget()
	if st.buf != 0 {
		sqlite3.Xsqlite3_free(tls, st.buf)
		st.buf = 0
	}
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxClose)))(tls, pFile)
}

func readAheadWrite(tls *libc.TLS, pFile, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	st := stateOf(pFile)
	st.forget()
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxWrite)))(tls, pFile, zBuf, iAmt, iOfst)
}

func readAheadTruncate(tls *libc.TLS, pFile uintptr, size int64) int32 {
	st := stateOf(pFile)
	st.forget()
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&m.FxTruncate)))(tls, pFile, size)
}

func readAheadLock(tls *libc.TLS, pFile uintptr, level int32) int32 {
	st := stateOf(pFile)
	st.forget()
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxLock)))(tls, pFile, level)
}

func readAheadUnlock(tls *libc.TLS, pFile uintptr, level int32) int32 {
	st := stateOf(pFile)
	st.forget()
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxUnlock)))(tls, pFile, level)
}

func readAheadShmLock(tls *libc.TLS, pFile uintptr, offset, n, flags int32) int32 {
	st := stateOf(pFile)
	st.forget()
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int32, int32, int32) int32)(unsafe.Pointer(&m.FxShmLock)))(tls, pFile, offset, n, flags)
}
