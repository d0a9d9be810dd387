package answer

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ReplayLegacy is Replay for a legacy (actor-labelled) operation, whose
// receipt may have been written by a version that predates some task
// fields: task objects in the answer are completed with those fields (as
// of now, an RFC 3339 time, for the effective status), without rewriting
// the stored receipt. An answer that already has every field comes back
// byte for byte; a completed one comes back with its keys sorted, which is
// as good as any order for a replay (clients compare by key).
func ReplayLegacy[T any](operation string, stored []byte, now string) (*Of[T], error) {
	a := Replay[T](operation, stored)
	dec := json.NewDecoder(bytes.NewReader(a.json))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("read stored %s receipt: %w", operation, err)
	}
	if !hydrate(v, now) {
		return a, nil
	}
	b, err := Encode(v)
	if err != nil {
		return nil, fmt.Errorf("complete stored %s receipt: %w", operation, err)
	}
	return &Of[T]{json: b}, nil
}

// taskDefaults are the fields a pre-v0.3 task lacks, in emitted order.
var taskDefaults = []struct {
	key   string
	value any
}{
	{"work_mode", "coordination"}, {"completion_policy", "reported"}, {"review_status", "legacy_unreviewed"},
	{"expected_base_sha", nil}, {"base_checkpoint", nil}, {"result_checkpoint", nil}, {"completion_report_id", nil},
	{"assignee_session_id", nil}, {"claim_worktree_id", nil}, {"reported_by", nil}, {"reported_by_session_id", nil},
	{"reported_at", nil}, {"accepted_by", nil}, {"accepted_by_session_id", nil}, {"accepted_at", nil},
}

// hydrate walks v and fills missing task fields; it reports whether it
// changed anything.
func hydrate(v any, now string) bool {
	changed := false
	switch x := v.(type) {
	case []any:
		for _, item := range x {
			changed = hydrate(item, now) || changed
		}
	case map[string]any:
		for _, item := range x {
			changed = hydrate(item, now) || changed
		}
		if looksLikeTask(x) {
			changed = fillTask(x, now) || changed
		}
	}
	return changed
}

func looksLikeTask(m map[string]any) bool {
	_, id := m["id"].(string)
	_, ws := m["workspace_id"].(string)
	status, _ := m["status"].(string)
	_, deps := m["dependencies"].([]any)
	_, scopes := m["path_scopes"].([]any)
	_, version := m["version"].(json.Number)
	switch status {
	case "open", "claimed", "blocked", "completed":
	default:
		return false
	}
	return id && ws && deps && scopes && version
}

func fillTask(m map[string]any, now string) bool {
	changed := false
	if _, ok := m["effective_status"].(string); !ok {
		status := m["status"].(string)
		expires, _ := m["lease_expires_at"].(string)
		if status == "claimed" && expires != "" && now >= expires {
			status = "lease_expired"
		}
		m["effective_status"] = status
		changed = true
	}
	for _, d := range taskDefaults {
		if _, ok := m[d.key]; !ok {
			m[d.key] = d.value
			changed = true
		}
	}
	return changed
}
