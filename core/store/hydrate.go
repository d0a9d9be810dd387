package store

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// hydrateLegacyReplay completes task objects inside a receipt written by an
// older version with the fields later versions added, without rewriting
// the stored receipt. Receipts that already have every field come back
// byte for byte.
func hydrateLegacyReplay(stored []byte, now string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(stored))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("read stored receipt: %w", err)
	}
	if !hydrate(v, now) {
		return stored, nil
	}
	return marshalOrdered(v)
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

// marshalOrdered renders a decoded value; object keys come out sorted,
// which is as good as any order for a replay (clients compare by key).
func marshalOrdered(v any) ([]byte, error) {
	return marshalNoEscape(v)
}
