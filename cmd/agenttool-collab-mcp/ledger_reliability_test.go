package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// ackedWrite is one write a client saw succeed, named by the event it must
// have produced: its type, entity and (when non-zero) the version the
// event announced.
type ackedWrite struct {
	typ     string
	entity  string
	version int64
}

// ackLedger collects acknowledged writes from many goroutines.
type ackLedger struct {
	mu     sync.Mutex
	writes []ackedWrite
}

func (l *ackLedger) add(w ackedWrite) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.writes = append(l.writes, w)
}

// requireEachExactlyOnce fails unless every acknowledged write produced
// exactly one matching event: none lost, none duplicated by a retry.
func (l *ackLedger) requireEachExactlyOnce(t *testing.T, db *sql.DB) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	bad := 0
	for _, w := range l.writes {
		var n int
		err := db.QueryRow(inspect(db, `SELECT count(*) FROM events WHERE type = ?1 AND entity_id = ?2
AND (?3 = 0 OR CAST(json_extract(payload_json, '$.version') AS INTEGER) = ?3)`), w.typ, w.entity, w.version).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			if bad++; bad <= 10 {
				t.Errorf("acknowledged %s of %s (version %d) is in the journal %d times", w.typ, w.entity, w.version, n)
			}
		}
	}
	if bad > 10 {
		t.Errorf("... and %d more acknowledged writes not journalled exactly once", bad-10)
	}
}

// leaseHolder is who holds a task's lease in the replayed journal.
type leaseHolder struct {
	session string
	expires string
}

// leaseEvent is the part of an event the lease replay reads.
type leaseEvent struct {
	seq        int64
	typ        string
	entity     string
	session    sql.NullString
	occurredAt string
	payload    struct {
		TaskID         string `json:"task_id"`
		LeaseExpiresAt string `json:"lease_expires_at"`
		FromSessionID  string `json:"from_session_id"`
		ToSessionID    string `json:"to_session_id"`
		Action         string `json:"action"`
	}
}

// requireNoOverlappingLeases replays every task lease in journal order and
// fails if a lease was granted while another session's lease on the same
// task was still live, or if the tasks table disagrees with the replay.
func requireNoOverlappingLeases(t *testing.T, db *sql.DB, workspaceID string) {
	t.Helper()
	holders := map[string]*leaseHolder{}
	for _, e := range loadLeaseEvents(t, db, workspaceID) {
		if err := applyLeaseEvent(holders, e); err != nil {
			t.Errorf("event %d (%s): %v", e.seq, e.typ, err)
		}
	}
	rows, err := db.Query(inspect(db, `SELECT id, status, coalesce(assignee_session_id, '') FROM tasks WHERE workspace_id = ?`), workspaceID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, status, session string
		if err := rows.Scan(&id, &status, &session); err != nil {
			t.Fatal(err)
		}
		h := holders[id]
		if (status == "claimed") != (h != nil) || (h != nil && h.session != session) {
			t.Errorf("task %s is %s held by %q, but the journal says %+v", id, status, session, h)
		}
	}
}

func loadLeaseEvents(t *testing.T, db *sql.DB, workspaceID string) []leaseEvent {
	t.Helper()
	rows, err := db.Query(inspect(db, `SELECT sequence, type, entity_id, session_id, occurred_at, payload_json FROM events
WHERE workspace_id = ? AND (type LIKE 'task.%' OR type = 'handoff.accepted') ORDER BY sequence`), workspaceID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []leaseEvent
	for rows.Next() {
		var e leaseEvent
		var payload string
		if err := rows.Scan(&e.seq, &e.typ, &e.entity, &e.session, &e.occurredAt, &payload); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(payload), &e.payload); err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// applyLeaseEvent moves the replayed lease state by one event.
func applyLeaseEvent(holders map[string]*leaseHolder, e leaseEvent) error {
	switch e.typ {
	case "task.claimed":
		if h := holders[e.entity]; h != nil && e.occurredAt < h.expires {
			return fmt.Errorf("task %s granted to %s while %s held it until %s", e.entity, e.session.String, h.session, h.expires)
		}
		holders[e.entity] = &leaseHolder{session: e.session.String, expires: e.payload.LeaseExpiresAt}
	case "handoff.accepted":
		h := holders[e.payload.TaskID]
		if h == nil || h.session != e.payload.FromSessionID {
			return fmt.Errorf("task %s handed over by %s, who did not hold it (%+v)", e.payload.TaskID, e.payload.FromSessionID, h)
		}
		holders[e.payload.TaskID] = &leaseHolder{session: e.payload.ToSessionID, expires: e.payload.LeaseExpiresAt}
	case "task.lease_renewed":
		if h := holders[e.entity]; h == nil || h.session != e.session.String {
			return fmt.Errorf("task %s renewed by %s, who does not hold it", e.entity, e.session.String)
		}
		holders[e.entity].expires = e.payload.LeaseExpiresAt
	case "task.recovered":
		return recoverLease(holders, e)
	case "task.released", "task.blocked", "task.completed", "task.reported_complete", "task.claim_expired":
		delete(holders, e.entity)
	}
	return nil
}

func recoverLease(holders map[string]*leaseHolder, e leaseEvent) error {
	if h := holders[e.entity]; h != nil && e.occurredAt < h.expires {
		return fmt.Errorf("task %s recovered while %s's lease was live until %s", e.entity, h.session, h.expires)
	}
	delete(holders, e.entity)
	if e.payload.LeaseExpiresAt != "" {
		holders[e.entity] = &leaseHolder{session: e.session.String, expires: e.payload.LeaseExpiresAt}
	}
	return nil
}
