package answer

import (
	"encoding/json"
	"testing"
)

// TestReplayLegacyCompletesOldTasksOnly: a pre-v0.3 task in a legacy
// receipt gains the fields later versions added (an elapsed lease reads as
// lease_expired); a complete receipt replays byte for byte.
func TestReplayLegacyCompletesOldTasksOnly(t *testing.T) {
	old := `{"id":"t","workspace_id":"w","status":"claimed","dependencies":[],"path_scopes":[],"version":3,` +
		`"lease_expires_at":"2026-01-01T00:00:00.000Z","title":"<x> & \u2028"}`
	got, err := ReplayLegacy[struct{}]("task.claim", []byte(old), "2026-06-01T00:00:00.000Z")
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]any
	if err := json.Unmarshal(got.JSON(), &m); err != nil {
		t.Fatalf("%s: %v", got.JSON(), err)
	}
	task := m["task"]
	if task["effective_status"] != "lease_expired" || task["work_mode"] != "coordination" || task["review_status"] != "legacy_unreviewed" {
		t.Errorf("not completed: %s", got.JSON())
	}
	if v, ok := task["completion_report_id"]; !ok || v != nil {
		t.Errorf("completion_report_id %v %v", v, ok)
	}
	if task["title"] != "<x> & \u2028" {
		t.Errorf("title %q", task["title"])
	}

	complete := `{"id":"t","workspace_id":"w","status":"open","dependencies":[],"path_scopes":[],"version":1.0,"effective_status":"open",` +
		`"work_mode":"coordination","completion_policy":"reported","review_status":"legacy_unreviewed","expected_base_sha":null,` +
		`"base_checkpoint":null,"result_checkpoint":null,"completion_report_id":null,"assignee_session_id":null,"claim_worktree_id":null,` +
		`"reported_by":null,"reported_by_session_id":null,"reported_at":null,"accepted_by":null,"accepted_by_session_id":null,"accepted_at":null}`
	same, err := ReplayLegacy[struct{}]("task.create", []byte(complete), "2026-06-01T00:00:00.000Z")
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"task":` + complete + `}`; string(same.JSON()) != want {
		t.Errorf("a complete receipt changed:\n%s\nwant\n%s", same.JSON(), want)
	}
	if _, err := ReplayLegacy[struct{}]("task.create", []byte(`{"id":`), "now"); err == nil {
		t.Error("a broken receipt replayed")
	}
}
