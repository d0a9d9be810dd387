package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"hash/fnv"
)

// Writers of one workspace in different processes queue in the server.
//
// The engine's own queue (queue.go) orders the writers of one process;
// writers in other processes would still meet at the workspace row, and
// each meeting costs the later one a failed attempt (40001) and a pause.
// A queued attempt that fails anyway shows it: holding the engine's turn,
// it can only have met a writer of another process. From then on, for a
// while (hotFor), queued attempts on that workspace also take its turn in
// the server: a
// session-level advisory lock, on a connection of its own, taken before
// BEGIN (a lock taken inside the transaction would come after its
// snapshot, which is what makes the attempt fail), and given back when
// the attempt ends. Only those attempts pay the two extra round trips: a
// writer that meets no one never queues, and writers that meet only in
// their own process queue there alone.
//
// The lock is only a hint about order. Correctness still rests on the
// SERIALIZABLE transaction and the lock on the workspace row, so a lost
// connection (which drops the advisory lock with its session) or a writer
// that does not queue cannot break the journal.

// turnClass is the first key of every advisory lock collab takes ("coll"),
// so that its locks do not collide with another application's in the same
// database.
const turnClass int32 = 0x636f6c6c

// turnKey is the second key: a hash of the workspace id. Two workspaces
// that share a hash only share a queue.
func turnKey(workspaceID string) int32 {
	h := fnv.New32a()
	h.Write([]byte(workspaceID))
	return int32(h.Sum32())
}

// serverTurn waits, on a connection of its own, for workspace
// workspaceID's turn in the server, and returns the connection and the
// release that gives the turn back and returns the connection to the pool.
func (e *Engine) serverTurn(ctx context.Context, workspaceID string) (*sql.Conn, func(), error) {
	conn, err := e.pool.Conn(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("take a connection for the workspace's turn: %w", err)
	}
	key := turnKey(workspaceID)
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1, $2)", turnClass, key); err != nil {
		_ = conn.Close()
		return nil, nil, fmt.Errorf("wait for the workspace's turn: %w", err)
	}
	release := func() {
		if _, err := conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1, $2)", turnClass, key); err != nil {
			// A connection that may still hold the turn must not go back
			// to the pool: ErrBadConn makes database/sql close it, and
			// the server drops the lock with the session.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		_ = conn.Close()
	}
	return conn, release, nil
}
