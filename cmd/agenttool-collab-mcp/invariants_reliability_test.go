package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The stress and crash tests pass when these checks find nothing, so the
// checks themselves must be shown to find what they claim to.

// TestStructuralChecksCatchHalfAppliedWrites tampers with copies of a
// consistent database, one inconsistency at a time, and requires the
// structural checks to name each one (and nothing on the untouched copy).
func TestStructuralChecksCatchHalfAppliedWrites(t *testing.T) {
	s := newSandbox(t)
	c, r, _ := startSession(t, s, s.repo("main", nil), "alice")
	ws := str(r, "workspace.id")
	ok(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "t", "title": "t", "work_mode": "coordination"})
	ok(t, c, "collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "r", "kind": "observation", "body": "b"})
	c.Close()
	cases := []struct{ name, tamper, want string }{
		{"untouched", "SELECT 1", ""},
		{"last event lost", "DELETE FROM events WHERE sequence = (SELECT max(sequence) FROM events)", "disagree with the head"},
		{"broken link", "UPDATE events SET prev_hash = hash WHERE sequence = 2", "prev_hash"},
		{"report without its event", "UPDATE reports SET event_sequence = 1", "reports without their report.posted event"},
		{"event without its report", "DELETE FROM reports", "report.posted events without their report row"},
		{"task changed without an event", "UPDATE tasks SET version = version + 1", "tasks whose version"},
		{"receipt without its change", `UPDATE mutations SET response_json = '{"report":{"id":"report_gone"}}'`, "report report_gone missing"},
		{"resume without its event", "UPDATE coordination_sessions SET generation = generation + 1", "generation disagrees"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			copyPath := filepath.Join(t.TempDir(), "copy.sqlite")
			data, err := os.ReadFile(s.db)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(copyPath, data, 0o600); err != nil {
				t.Fatal(err)
			}
			execSQL(t, copyPath, tc.tamper)
			bad, err := structuralViolations(openDB(t, copyPath))
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(bad, "\n")
			if (tc.want == "") != (len(bad) == 0) || !strings.Contains(joined, tc.want) {
				t.Fatalf("want a violation mentioning %q, got:\n%s", tc.want, joined)
			}
		})
	}
}

// TestLeaseReplayCatchesOverlappingLeases feeds synthetic journals to the
// lease replay.
func TestLeaseReplayCatchesOverlappingLeases(t *testing.T) {
	claim := func(seq int64, at, session, expires string) leaseEvent {
		e := leaseEvent{seq: seq, typ: "task.claimed", entity: "t", occurredAt: at}
		e.session.String, e.session.Valid = session, true
		e.payload.LeaseExpiresAt = expires
		return e
	}
	handoff := func(seq int64, at, from, to string) leaseEvent {
		e := leaseEvent{seq: seq, typ: "handoff.accepted", entity: "h", occurredAt: at}
		e.payload.TaskID, e.payload.FromSessionID, e.payload.ToSessionID, e.payload.LeaseExpiresAt = "t", from, to, "2026-01-01T01:00:00.000Z"
		return e
	}
	release := leaseEvent{seq: 2, typ: "task.released", entity: "t", occurredAt: "2026-01-01T00:00:10.000Z"}
	cases := []struct {
		name    string
		journal []leaseEvent
		overlap bool
	}{
		{"second claim while the first is live", []leaseEvent{claim(1, "2026-01-01T00:00:00.000Z", "a", "2026-01-01T00:15:00.000Z"),
			claim(2, "2026-01-01T00:01:00.000Z", "b", "2026-01-01T00:16:00.000Z")}, true},
		{"second claim after the first expired", []leaseEvent{claim(1, "2026-01-01T00:00:00.000Z", "a", "2026-01-01T00:00:30.000Z"),
			claim(2, "2026-01-01T00:00:31.000Z", "b", "2026-01-01T00:16:00.000Z")}, false},
		{"second claim after a release", []leaseEvent{claim(1, "2026-01-01T00:00:00.000Z", "a", "2026-01-01T00:15:00.000Z"),
			release, claim(3, "2026-01-01T00:00:20.000Z", "b", "2026-01-01T00:16:00.000Z")}, false},
		{"handoff by a session that does not hold the lease", []leaseEvent{claim(1, "2026-01-01T00:00:00.000Z", "a", "2026-01-01T00:15:00.000Z"),
			handoff(2, "2026-01-01T00:01:00.000Z", "b", "c")}, true},
		{"handoff by the holder", []leaseEvent{claim(1, "2026-01-01T00:00:00.000Z", "a", "2026-01-01T00:15:00.000Z"),
			handoff(2, "2026-01-01T00:01:00.000Z", "a", "c")}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			holders, overlap := map[string]*leaseHolder{}, false
			for _, e := range tc.journal {
				overlap = overlap || applyLeaseEvent(holders, e) != nil
			}
			if overlap != tc.overlap {
				t.Fatalf("overlap reported %v, want %v", overlap, tc.overlap)
			}
		})
	}
}

// TestCredentialChecksCatchFilesWithNoWayBack rewrites a live session's
// credential file into states no resume can repair and requires the
// credential check to name each, while the untouched file passes.
func TestCredentialChecksCatchFilesWithNoWayBack(t *testing.T) {
	s := newSandbox(t)
	c, _, file := startSession(t, s, s.repo("main", nil), "alice")
	c.Close()
	original, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edit := func(key string, value any) []byte {
		var m map[string]any
		json.Unmarshal(original, &m)
		if cur, ok := m["last_cursor"].(map[string]any); ok && strings.HasPrefix(key, "cursor.") {
			cur[strings.TrimPrefix(key, "cursor.")] = value
		} else {
			m[key] = value
		}
		b, _ := json.Marshal(m)
		return b
	}
	cases := []struct {
		name    string
		content []byte
		want    string
	}{
		{"untouched", original, ""},
		{"torn", original[:len(original)/2], "unreadable"},
		{"generation ahead", edit("generation", 9), "generation 9"},
		{"foreign token", edit("session_token", strings.Repeat("x", 43)), "token does not match"},
		{"cursor ahead of the session", edit("cursor.sequence", 99), "not at or before"},
		{"unknown session", edit("session_id", "session_gone"), "names no session"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(file, tc.content, 0o600); err != nil {
				t.Fatal(err)
			}
			_, bad, err := credentialViolations(openDB(t, s.db), s.db)
			if err != nil {
				t.Fatal(err)
			}
			joined := strings.Join(bad, "\n")
			if (tc.want == "") != (len(bad) == 0) || !strings.Contains(joined, tc.want) {
				t.Fatalf("want a violation mentioning %q, got:\n%s", tc.want, joined)
			}
		})
	}
}
