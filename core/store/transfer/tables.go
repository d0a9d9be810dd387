package transfer

import "strings"

// table is one collab table as both engines hold it: its name, its
// columns in schema order, the columns of its primary key, and whether
// the engines keep its rows' insertion order (SQLite's rowid, PostgreSQL's
// identity row_id), which some reads sort by.
type table struct {
	name    string
	columns []string
	key     []string
	ordered bool
}

// tables is every table of a collab journal, in an order in which each
// table's references point at tables already copied. SQLite's
// v2_write_guard (a lock row held only inside a transaction) and
// schema_migrations, and PostgreSQL's schema_version, describe the file or
// schema itself, not the journal, and are not copied: each target keeps its
// own. The column lists are checked against both sides before anything is
// copied (see checkColumns), so a schema change on either engine that this
// list misses stops the copy instead of losing a column.
var tables = []table{
	{"workspaces", cols("id epoch_id root_path name created_at event_head_sequence event_head_hash repository_key"),
		cols("id"), true},
	{"repositories", cols("key created_at"), cols("key"), false},
	{"worktrees", cols("id workspace_id repository_key root_path git_common_dir_hash fingerprint branch head_sha dirty " +
		"registered_at last_seen_at"), cols("id"), false},
	{"tasks", cols("id workspace_id title description status dependencies_json path_scopes_json assignee lease_id " +
		"lease_expires_at blocker latest_progress version created_at updated_at completed_at coordination_mode work_mode " +
		"completion_policy review_status review_generation expected_base_sha base_checkpoint_json result_checkpoint_json " +
		"completion_report_id assignee_session_id claim_worktree_id reported_by reported_by_session_id reported_at " +
		"accepted_by accepted_by_session_id accepted_at"), cols("workspace_id id"), true},
	{"artifacts", cols("id workspace_id task_id kind uri sha256 media_type label attached_by attached_at " +
		"attached_by_session_id"), cols("id"), false},
	{"decisions", cols("id workspace_id topic decision rationale recorded_by recorded_at"), cols("id"), false},
	{"handoffs", cols("id workspace_id task_id from_actor to_actor summary status offered_at expires_at resolved_at " +
		"from_session_id to_session_id"), cols("id"), true},
	{"events", cols("workspace_id epoch_id sequence id protocol type entity_id actor occurred_at payload_json prev_hash " +
		"hash session_id"), cols("workspace_id sequence"), false},
	{"mutations", cols("workspace_id actor idempotency_key operation request_hash response_json created_at"),
		cols("workspace_id actor idempotency_key"), false},
	{"sessions", cols("id workspace_id epoch_id client_instance_id actor_label actor_key runtime_kind provider_label " +
		"model_label declared_capabilities_json version joined_at last_seen_at presence_expires_at left_at"), cols("id"), false},
	{"coordination_sessions", cols("id workspace_id worktree_id actor role parent_session_id status generation " +
		"token_hash joined_at last_seen_at ended_at cursor_epoch_id cursor_sequence cursor_hash cursor_version " +
		"reset_generation cursor_recovery_required"), cols("id"), false},
	{"reports", cols("id workspace_id task_id from_session_id from_actor to_session_id kind body evidence_refs_json " +
		"confidence confidence_basis limits relation target_report_id authority_scope authority_basis created_at " +
		"event_sequence"), cols("id"), false},
	{"task_reviews", cols("id workspace_id task_id review_generation outcome summary reviewer_actor reviewer_session_id " +
		"created_at event_sequence"), cols("id"), false},
	{"task_recoveries", cols("id workspace_id task_id prior_lease_id prior_session_id recovered_by_session_id action " +
		"note prior_checkpoint_json new_lease_id recovered_at event_sequence"), cols("id"), false},
	{"session_cursor_resets", cols("id session_id from_epoch_id from_sequence from_hash to_epoch_id to_sequence to_hash " +
		"reason reset_generation created_at"), cols("id"), false},
}

func cols(s string) []string { return strings.Fields(s) }

// columnList is the table's columns for a SELECT or INSERT.
func (t table) columnList() string { return strings.Join(t.columns, ", ") }

// tableNames lists every copied table, in copy order.
func tableNames() []string {
	names := make([]string, len(tables))
	for i, t := range tables {
		names[i] = t.name
	}
	return names
}
