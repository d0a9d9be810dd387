package main

import (
	"database/sql"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/historygen"
	"github.com/agenttool/collab/core/store/sqlite"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// typeIndexedJournal is a copy of a generated history long enough for an
// open to add the events type index, opened once by a server so that it
// holds the index.
func typeIndexedJournal(t *testing.T) (historygen.Fixture, *sandbox) {
	t.Helper()
	f, s := historySandbox(t, t.TempDir(), 1200)
	if n := queryInt(t, s.db, "SELECT count(*) FROM sqlite_master WHERE name = ?", sqlite.TypeIndex); n != 0 {
		t.Fatal("the generated history already holds the type index")
	}
	s.start().Close()
	if n := queryInt(t, s.db, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = ?", sqlite.TypeIndex); n != 1 {
		t.Fatalf("an open of a %d-event journal did not add %s", f.Head.Sequence, sqlite.TypeIndex)
	}
	return f, s
}

// journaledClaims reads, without any index (a scan of the table), every
// claim the journal holds (id, in sequence order) and the status each
// release event gave.
func journaledClaims(t *testing.T, path, workspaceID string) (ids []string, released map[string]string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT type, coalesce(json_extract(payload_json, '$.claim.id'), json_extract(payload_json, '$.claim_id')),
coalesce(json_extract(payload_json, '$.status'), '') FROM events NOT INDEXED
WHERE workspace_id = ? AND sequence > 0 AND type IN ('independence.claimed', 'independence.released') ORDER BY sequence`, workspaceID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	released = map[string]string{}
	for rows.Next() {
		var kind, id, status string
		if err := rows.Scan(&kind, &id, &status); err != nil {
			t.Fatal(err)
		}
		if kind == "independence.claimed" {
			ids = append(ids, id)
		} else if _, done := released[id]; !done {
			released[id] = status
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return ids, released
}

// requireListedAsJournaled requires a fresh server's claim list to be the
// journal's claims, in order, each released one with its release status
// and every other one open or expired.
func requireListedAsJournaled(t *testing.T, s *sandbox, f historygen.Fixture) {
	t.Helper()
	ids, released := journaledClaims(t, s.db, f.WorkspaceID)
	if len(ids) == 0 {
		t.Fatal("the history holds no independence claim to read")
	}
	c := s.start()
	defer c.Close()
	ok(t, c, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "reader"})
	list := ok(t, c, "collab_independence_list", map[string]any{"workspace_id": f.WorkspaceID})
	claims, _ := list["claims"].([]any)
	var got []string
	for _, raw := range claims {
		claim, _ := raw.(map[string]any)
		id, _ := claim["id"].(string)
		status, _ := claim["status"].(string)
		got = append(got, id)
		want, wasReleased := released[id]
		if wasReleased && status != want {
			t.Errorf("claim %s reads %q, its release journaled %q", id, status, want)
		}
		if !wasReleased && status != "open" && status != "expired" {
			t.Errorf("claim %s reads %q with no release journaled", id, status)
		}
	}
	if !slices.Equal(got, ids) {
		t.Fatalf("a fresh server lists claims %v, the journal holds %v", got, ids)
	}
}

// TestClaimsReadTheSameThroughTheTypeIndex folds the claims of a real
// generated history held in a file with the events type index, in a
// fresh server whose first read of them goes through the index, and
// requires exactly the claims the journal's events hold, read without it;
// a claim made and released after the index was added is among them.
func TestClaimsReadTheSameThroughTheTypeIndex(t *testing.T) {
	f, s := typeIndexedJournal(t)
	c := s.start()
	ok(t, c, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "late-claimant"})
	claim := ok(t, c, "collab_independence_claim", map[string]any{"workspace_id": f.WorkspaceID, "topic": "late-topic"})
	id, _ := claim["claim"].(map[string]any)["id"].(string)
	ok(t, c, "collab_independence_release", map[string]any{"workspace_id": f.WorkspaceID, "claim_id": id, "reason": "done"})
	ok(t, c, "collab_independence_claim", map[string]any{"workspace_id": f.WorkspaceID, "topic": "later-topic"})
	c.Close()
	requireListedAsJournaled(t, s, f)
}

// TestReferenceKeepsAFileWithTheTypeIndex proves the type index is one the
// reference keeps: it opens a file holding it and appends, SQLite's
// integrity check then finds the index agreeing with the events table,
// and a fresh server here folds the claims made after the reference's
// events exactly as the journal holds them.
func TestReferenceKeepsAFileWithTheTypeIndex(t *testing.T) {
	ref := referenceImplementation(t)
	f, s := typeIndexedJournal(t)
	rc, err := mcptest.Start(ref.argv, s.env())
	if err != nil {
		t.Fatalf("the reference refused a file holding %s: %v", sqlite.TypeIndex, err)
	}
	ok(t, rc, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "reference"})
	before := queryInt(t, s.db, "SELECT event_head_sequence FROM workspaces WHERE id = ?", f.WorkspaceID)
	for i := 0; i < 3; i++ {
		ok(t, rc, "collab_task_create", map[string]any{"workspace_id": f.WorkspaceID, "actor": "reference",
			"idempotency_key": fmt.Sprintf("ref-%d", i), "title": "made by the reference", "path_scopes": []any{"docs/ref.md"}})
	}
	rc.Close()
	if after := queryInt(t, s.db, "SELECT event_head_sequence FROM workspaces WHERE id = ?", f.WorkspaceID); after <= before {
		t.Fatalf("the reference appended nothing (head %d)", after)
	}
	if msg := queryText(t, s.db, "PRAGMA integrity_check"); msg != "ok" {
		t.Fatalf("after the reference's appends the file fails its integrity check: %s", msg)
	}
	c := s.start()
	ok(t, c, "collab_session_start", map[string]any{"root_path": f.Root, "actor": "after-reference"})
	ok(t, c, "collab_independence_claim", map[string]any{"workspace_id": f.WorkspaceID, "topic": "after-reference"})
	c.Close()
	requireListedAsJournaled(t, s, f)
}

func queryText(t *testing.T, path, query string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out string
	if err := db.QueryRow(query).Scan(&out); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return out
}
