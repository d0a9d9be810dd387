//go:build !collab_nodirect

package sqlite

import (
	"errors"
	"fmt"
	"unsafe"

	"modernc.org/libc"
	sqlite3 "modernc.org/sqlite/lib"
)

// directConn is a read-only connection opened straight through the SQLite
// library rather than through database/sql, in SQLite's multi-thread mode
// (SQLITE_OPEN_NOMUTEX). The driver opens every connection serialized, so
// each row step and each column read takes the connection's mutex; reading
// a whole journal, that was a third of the time. Without the mutex a
// directConn must be used by one goroutine at a time, and it is: each full
// journal read opens its own and closes it when done.
type directConn struct {
	tls *libc.TLS
	db  uintptr
}

// cmem is the address p of memory the SQLite library allocated (outside
// the Go heap, so the collector neither moves nor frees it) as a pointer.
// It reads p's bits as a pointer instead of converting the integer, which
// is the same thing for such memory but not what vet can tell apart from
// a Go pointer kept as an integer.
func cmem(p uintptr) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&p)) }

// directCachePragma keeps a direct connection's page cache small. A full
// journal read visits each page once, so a larger cache only costs the
// allocation of every page it grows by.
const directCachePragma = "PRAGMA cache_size = -256"

// directURI names path for openDirect, read-only, and immutable for a
// store that reads a cleanly closed file without locking it.
func directURI(path string, immutable bool) string {
	uri := "file:" + uriPath(path) + "?mode=ro"
	if immutable {
		uri += "&immutable=1"
	}
	return uri
}

// openDirect opens the database uri names (see directURI) read-only,
// waiting up to busyTimeout on a lock as the pools do.
func openDirect(uri string) (*directConn, error) {
	c := &directConn{tls: libc.NewTLS()}
	name, err := libc.CString(uri)
	if err != nil {
		c.tls.Close()
		return nil, err
	}
	defer libc.Xfree(c.tls, name)
	handle := c.tls.Alloc(int(unsafe.Sizeof(uintptr(0))))
	defer c.tls.Free(int(unsafe.Sizeof(uintptr(0))))
	rc := sqlite3.Xsqlite3_open_v2(c.tls, name, handle,
		sqlite3.SQLITE_OPEN_READONLY|sqlite3.SQLITE_OPEN_NOMUTEX|sqlite3.SQLITE_OPEN_URI, 0)
	c.db = *(*uintptr)(cmem(handle))
	if rc != sqlite3.SQLITE_OK {
		err := c.errorOf(rc)
		c.Close()
		return nil, fmt.Errorf("open a direct read connection: %w", err)
	}
	sqlite3.Xsqlite3_busy_timeout(c.tls, c.db, int32(busyTimeout.Milliseconds()))
	if err := c.exec(directCachePragma); err != nil {
		c.Close()
		return nil, fmt.Errorf("open a direct read connection: %w", err)
	}
	return c, nil
}

// Close closes the connection; its statements must be closed first.
func (c *directConn) Close() {
	if c.db != 0 {
		sqlite3.Xsqlite3_close_v2(c.tls, c.db)
		c.db = 0
	}
	c.tls.Close()
}

// errorOf is the error SQLite reports for result code rc.
func (c *directConn) errorOf(rc int32) error {
	if c.db == 0 {
		return fmt.Errorf("sqlite error %d", rc)
	}
	return fmt.Errorf("%s (%d)", libc.GoString(sqlite3.Xsqlite3_errmsg(c.tls, c.db)), rc)
}

// exec runs one statement that returns no rows that matter.
func (c *directConn) exec(query string) error {
	stmt, err := c.prepare(query)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for {
		row, err := stmt.step()
		if err != nil || !row {
			return err
		}
	}
}

// directStmt is a prepared statement of a directConn.
type directStmt struct {
	c *directConn
	p uintptr
}

// prepare compiles query, which must be one statement.
func (c *directConn) prepare(query string) (*directStmt, error) {
	text, err := libc.CString(query)
	if err != nil {
		return nil, err
	}
	defer libc.Xfree(c.tls, text)
	out := c.tls.Alloc(int(unsafe.Sizeof(uintptr(0))))
	defer c.tls.Free(int(unsafe.Sizeof(uintptr(0))))
	if rc := sqlite3.Xsqlite3_prepare_v2(c.tls, c.db, text, -1, out, 0); rc != sqlite3.SQLITE_OK {
		return nil, c.errorOf(rc)
	}
	s := &directStmt{c: c, p: *(*uintptr)(cmem(out))}
	if s.p == 0 {
		return nil, errors.New("prepare: no statement in the query")
	}
	return s, nil
}

// Close finalizes the statement.
func (s *directStmt) Close() {
	if s.p != 0 {
		sqlite3.Xsqlite3_finalize(s.c.tls, s.p)
		s.p = 0
	}
}

// bindInt64 binds v to the parameter numbered i (from 1).
func (s *directStmt) bindInt64(i int, v int64) error {
	if rc := sqlite3.Xsqlite3_bind_int64(s.c.tls, s.p, int32(i), v); rc != sqlite3.SQLITE_OK {
		return s.c.errorOf(rc)
	}
	return nil
}

// bindText binds a copy of v to the parameter numbered i (from 1).
func (s *directStmt) bindText(i int, v string) error {
	text, err := libc.CString(v)
	if err != nil {
		return err
	}
	defer libc.Xfree(s.c.tls, text)
	if rc := sqlite3.Xsqlite3_bind_text(s.c.tls, s.p, int32(i), text, int32(len(v)), sqlite3.SQLITE_TRANSIENT); rc != sqlite3.SQLITE_OK {
		return s.c.errorOf(rc)
	}
	return nil
}

// step advances to the next row: true with a row, false once done.
func (s *directStmt) step() (bool, error) {
	switch rc := sqlite3.Xsqlite3_step(s.c.tls, s.p); rc {
	case sqlite3.SQLITE_ROW:
		return true, nil
	case sqlite3.SQLITE_DONE:
		return false, nil
	default:
		return false, s.c.errorOf(rc)
	}
}

// columnType is the storage class of column i (from 0) of the current row.
func (s *directStmt) columnType(i int) int32 {
	return sqlite3.Xsqlite3_column_type(s.c.tls, s.p, int32(i))
}

// columnInt64 is column i (from 0) of the current row as an integer.
func (s *directStmt) columnInt64(i int) int64 {
	return sqlite3.Xsqlite3_column_int64(s.c.tls, s.p, int32(i))
}

// columnText is column i (from 0) of the current row as text, viewed in
// SQLite's memory: it is valid only until the next step, and must be
// copied to be kept.
func (s *directStmt) columnText(i int) []byte {
	p := sqlite3.Xsqlite3_column_text(s.c.tls, s.p, int32(i))
	n := sqlite3.Xsqlite3_column_bytes(s.c.tls, s.p, int32(i))
	if p == 0 || n == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(cmem(p)), n)
}
