package sqlite

import (
	"encoding/binary"
	"sync"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// walBatchName is the name the WAL-batching VFS is registered under.
const walBatchName = "collab-walbatch"

// walBatchLimit bounds the bytes a WAL file holds back before writing
// them: a large transaction's frames go out in pieces of at most this
// size. The default VFS writes at most 128 KiB less one byte per call (it
// masks the length), so one piece must stay below that.
const walBatchLimit = 96 << 10

// walFrameHeader is the size of a WAL frame header; the write that
// precedes each frame's page is exactly this long.
const walFrameHeader = 24

// walBatchVFS registers the WAL-batching VFS on first use and reports its
// name, or "" when it could not be registered (the write connections then
// use the default VFS). The registration is process-wide and happens once.
var walBatchVFS = sync.OnceValue(registerWALBatch)

// The WAL-batching VFS is the default VFS with one change, for the -wal
// files of the write connections: the frames of one commit reach the file
// in one write instead of two per page (a 24-byte header, then the page).
// Here a write costs about 5 µs whatever its size, and a report append
// commits five pages, so that is ten writes made one.
//
// Why no reader, crash or error can tell: SQLite writes a commit's frames
// in order, each header then its page, and the commit frame last; a frame
// becomes visible to anyone only when SQLite then publishes the new end of
// the log in the shared WAL index. The VFS holds back writes that extend
// the run it holds, and writes the whole run out as soon as the page of a
// commit frame (a header whose commit field is not zero) is added, from
// within that page's own write call, so the commit frame and everything
// before it are in the file before SQLite's call returns, as they were
// before, and a failure is that write's failure, reported to SQLite as
// before. Any other call on the file (read, sync, truncate, size, file
// control, close) and any write that does not extend the run write the
// run out first, so every call finds the file as if each write had been
// made when SQLite made it. A process that dies with frames held back had
// not finished writing that transaction: it was never committed, as when
// it dies before writing them.

// walBatchFile is what the VFS keeps after the default VFS's file object.
type walBatchFile struct {
	wrappedFile
	buf    uintptr // walBatchLimit bytes of SQLite's memory, 0 until first used
	off    int64   // the file offset of buf's first byte
	n      int64   // bytes held back in buf
	commit bool    // the last write held back was a commit frame's header
}

func registerWALBatch() string {
	return registerWrapper(walBatchName, unsafe.Sizeof(walBatchFile{}), unsafe.Alignof(walBatchFile{}), walBatchOpen)
}

// walBatchOpen opens a file through the default VFS and, for a -wal file,
// routes its writes and every call that must see them through this VFS.
func walBatchOpen(tls *libc.TLS, pVfs, zName, pFile uintptr, flags int32, pOutFlags uintptr) int32 {
	rc, file, state := openWrapped(tls, pVfs, zName, pFile, flags, pOutFlags, unsafe.Alignof(walBatchFile{}))
	if rc != sqlite3.SQLITE_OK || flags&sqlite3.SQLITE_OPEN_WAL == 0 || file.FpMethods == 0 {
		return rc
	}
	st := (*walBatchFile)(cmem(state))
	*st = walBatchFile{}
	st.adopt(file)
	m := &st.methods
	*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxClose)) = walBatchClose
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxRead)) = walBatchRead
	*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxWrite)) = walBatchWrite
	*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&m.FxTruncate)) = walBatchTruncate
	*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxSync)) = walBatchSync
	*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxFileSize)) = walBatchFileSize
	*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&m.FxFileControl)) = walBatchFileControl
	file.FpMethods = state
	return rc
}

// walStateOf is the walBatchFile of a -wal file this VFS opened.
func walStateOf(pFile uintptr) *walBatchFile {
	return (*walBatchFile)(cmem((*sqlite3.Tsqlite3_file)(cmem(pFile)).FpMethods))
}

func (st *walBatchFile) origWrite(tls *libc.TLS, pFile, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxWrite)))(tls, pFile, zBuf, iAmt, iOfst)
}

// flush writes out what is held back; after a failure nothing is held
// back any more and the error is the write's.
func (st *walBatchFile) flush(tls *libc.TLS, pFile uintptr) int32 {
	if st.n == 0 {
		return sqlite3.SQLITE_OK
	}
	n, off := st.n, st.off
	st.n, st.commit = 0, false
	return st.origWrite(tls, pFile, st.buf, int32(n), off)
}

func walBatchWrite(tls *libc.TLS, pFile, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	st := walStateOf(pFile)
	want := int64(iAmt)
	// The page of a commit frame completes the commit: after it, nothing
	// of the commit may stay held back.
	completes := st.commit && want != walFrameHeader
	src := unsafe.Slice((*byte)(cmem(zBuf)), want)
	header := want == walFrameHeader && binary.BigEndian.Uint32(src[4:8]) != 0
	if st.n > 0 && (iOfst != st.off+st.n || st.n+want > walBatchLimit) {
		if rc := st.flush(tls, pFile); rc != sqlite3.SQLITE_OK {
			return rc
		}
	}
	if !st.hold(tls, src, iOfst) {
		st.commit = false
		return st.origWrite(tls, pFile, zBuf, iAmt, iOfst)
	}
	if completes {
		return st.flush(tls, pFile)
	}
	st.commit = header
	return sqlite3.SQLITE_OK
}

// hold adds src, to be written at off, to the run held back; false when it
// cannot (too large, or no memory), in which case nothing is held back.
func (st *walBatchFile) hold(tls *libc.TLS, src []byte, off int64) bool {
	if int64(len(src)) > walBatchLimit-st.n {
		return false
	}
	if st.buf == 0 {
		if st.buf = sqlite3.Xsqlite3_malloc64(tls, walBatchLimit); st.buf == 0 {
			return false
		}
	}
	if st.n == 0 {
		st.off = off
	}
	copy(unsafe.Slice((*byte)(cmem(st.buf+uintptr(st.n))), len(src)), src)
	st.n += int64(len(src))
	return true
}

func walBatchRead(tls *libc.TLS, pFile, zBuf uintptr, iAmt int32, iOfst int64) int32 {
	st := walStateOf(pFile)
	if rc := st.flush(tls, pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, uintptr, int32, int64) int32)(unsafe.Pointer(&m.FxRead)))(tls, pFile, zBuf, iAmt, iOfst)
}

func walBatchTruncate(tls *libc.TLS, pFile uintptr, size int64) int32 {
	st := walStateOf(pFile)
	if rc := st.flush(tls, pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int64) int32)(unsafe.Pointer(&m.FxTruncate)))(tls, pFile, size)
}

func walBatchSync(tls *libc.TLS, pFile uintptr, flags int32) int32 {
	st := walStateOf(pFile)
	if rc := st.flush(tls, pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int32) int32)(unsafe.Pointer(&m.FxSync)))(tls, pFile, flags)
}

func walBatchFileSize(tls *libc.TLS, pFile, pSize uintptr) int32 {
	st := walStateOf(pFile)
	if rc := st.flush(tls, pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, uintptr) int32)(unsafe.Pointer(&m.FxFileSize)))(tls, pFile, pSize)
}

func walBatchFileControl(tls *libc.TLS, pFile uintptr, op int32, pArg uintptr) int32 {
	st := walStateOf(pFile)
	if rc := st.flush(tls, pFile); rc != sqlite3.SQLITE_OK {
		return rc
	}
	m := st.origMethods()
	return (*(*func(*libc.TLS, uintptr, int32, uintptr) int32)(unsafe.Pointer(&m.FxFileControl)))(tls, pFile, op, pArg)
}

func walBatchClose(tls *libc.TLS, pFile uintptr) int32 {
	st := walStateOf(pFile)
	rc := st.flush(tls, pFile)
	if st.buf != 0 {
		sqlite3.Xsqlite3_free(tls, st.buf)
		st.buf = 0
	}
	m := st.origMethods()
	if closed := (*(*func(*libc.TLS, uintptr) int32)(unsafe.Pointer(&m.FxClose)))(tls, pFile); rc == sqlite3.SQLITE_OK {
		rc = closed
	}
	return rc
}
