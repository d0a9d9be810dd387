package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// TestLockWaitBoundsTheWaitOnALockedFile holds an exclusive lock on a
// collab file and opens it read-only with a short LockWait: the open must
// give up about then, not after the five seconds every other caller waits.
func TestLockWaitBoundsTheWaitOnALockedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "collab.sqlite")
	db, err := Open(context.Background(), Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	lock, err := sql.Open("sqlite", "file:"+path+"?_pragma=locking_mode(EXCLUSIVE)")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	conn, err := lock.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	began := time.Now()
	ro, err := Open(context.Background(), Options{Path: path, ReadOnly: true, LockWait: 150 * time.Millisecond})
	took := time.Since(began)
	if err == nil {
		ro.Close()
		t.Fatal("a read-only open of an exclusively locked file succeeded")
	}
	t.Logf("refused after %s: %v", took, err)
	if took > 2*time.Second {
		t.Fatalf("the open waited %s on the lock; LockWait was 150ms", took)
	}
}
