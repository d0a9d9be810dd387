package layout

// Tables returns every table of a current collab database, in an order in
// which each Journal table's references point only at tables before it
// (the order a copy writes them in), followed by each engine's own tables
// and the Beside ones. Each call builds a new slice, so no caller can
// change what another reads.
func Tables() []Table {
	return []Table{
		{Name: "workspaces", Home: Journal, Since: V1, Key: key("id"), RowOrdered: true,
			Columns: []Column{text("id"), text("epoch_id").notNull(), text("root_path").notNull(), text("name").notNull(),
				text("created_at").notNull(), integer("event_head_sequence").notNull().or("0"),
				text("event_head_hash").notNull()},
			Added: []Column{text("repository_key").notNull().or("''")}},
		{Name: "repositories", Home: Journal, Since: V2, Key: key("key"),
			Columns: []Column{text("key"), text("created_at").notNull()}},
		{Name: "worktrees", Home: Journal, Since: V2, Key: key("id"),
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("repository_key").notNull(),
				text("root_path").notNull(), text("git_common_dir_hash"), text("fingerprint").notNull(), text("branch"),
				text("head_sha"), integer("dirty"), text("registered_at").notNull(), text("last_seen_at").notNull()}},
		tasks(),
		{Name: "artifacts", Home: Journal, Since: V1, Key: key("id"),
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("task_id").notNull(), text("kind").notNull(),
				text("uri").notNull(), text("sha256"), text("media_type"), text("label"), text("attached_by").notNull(),
				text("attached_at").notNull()},
			Added: []Column{text("attached_by_session_id")}},
		{Name: "decisions", Home: Journal, Since: V1, Key: key("id"),
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("topic").notNull(),
				text("decision").notNull(), text("rationale"), text("recorded_by").notNull(), text("recorded_at").notNull()}},
		{Name: "handoffs", Home: Journal, Since: V1, Key: key("id"), RowOrdered: true,
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("task_id").notNull(),
				text("from_actor").notNull(), text("to_actor").notNull(), text("summary").notNull(), text("status").notNull(),
				text("offered_at").notNull(), text("expires_at").notNull(), text("resolved_at")},
			Added: []Column{text("from_session_id"), text("to_session_id")}},
		{Name: "events", Home: Journal, Since: V1, Key: key("workspace_id", "sequence"),
			Columns: []Column{text("workspace_id").notNull(), text("epoch_id").notNull(), integer("sequence").notNull(),
				text("id").notNull(), text("protocol").notNull(), text("type").notNull(), text("entity_id").notNull(),
				text("actor").notNull(), text("occurred_at").notNull(), text("payload_json").notNull(),
				text("prev_hash").notNull(), text("hash").notNull()},
			Added: []Column{text("session_id")}},
		{Name: "mutations", Home: Journal, Since: V1, Key: key("workspace_id", "actor", "idempotency_key"),
			Columns: []Column{text("workspace_id").notNull(), text("actor").notNull(), text("idempotency_key").notNull(),
				text("operation").notNull(), text("request_hash").notNull(), text("response_json").notNull(),
				text("created_at").notNull()}},
		{Name: "sessions", Home: Journal, Since: V2, Key: key("id"),
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("epoch_id").notNull(),
				text("client_instance_id").notNull(), text("actor_label").notNull(), text("actor_key").notNull(),
				text("runtime_kind").notNull(), text("provider_label"), text("model_label"),
				text("declared_capabilities_json").notNull(), integer("version").notNull(), text("joined_at").notNull(),
				text("last_seen_at").notNull(), text("presence_expires_at").notNull(), text("left_at")}},
		coordinationSessions(),
		reports(),
		{Name: "task_reviews", Home: Journal, Since: V2, Key: key("id"),
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("task_id").notNull(),
				integer("review_generation").notNull(), text("outcome").notNull(), text("summary").notNull(),
				text("reviewer_actor").notNull(), text("reviewer_session_id").notNull(), text("created_at").notNull(),
				integer("event_sequence").notNull()}},
		{Name: "task_recoveries", Home: Journal, Since: V2, Key: key("id"),
			Columns: []Column{text("id"), text("workspace_id").notNull(), text("task_id").notNull(),
				text("prior_lease_id").notNull(), text("prior_session_id"), text("recovered_by_session_id").notNull(),
				text("action").notNull(), text("note").notNull(), text("prior_checkpoint_json"), text("new_lease_id"),
				text("recovered_at").notNull(), integer("event_sequence").notNull()}},
		{Name: "session_cursor_resets", Home: Journal, Since: V2, Key: key("id"),
			Columns: []Column{text("id"), text("session_id").notNull(), text("from_epoch_id").notNull(),
				integer("from_sequence").notNull(), text("from_hash").notNull(), text("to_epoch_id").notNull(),
				integer("to_sequence").notNull(), text("to_hash").notNull(), text("reason").notNull(),
				integer("reset_generation").notNull(), text("created_at").notNull()}},
		{Name: "v2_write_guard", Home: SQLiteFile, Since: V2, Key: key("nonce"),
			Columns: []Column{text("nonce"), integer("enabled").notNull()}},
		{Name: "schema_migrations", Home: SQLiteFile, Since: V2, Key: key("version"),
			Columns: []Column{integer("version"), text("protocol").notNull(), text("applied_at").notNull()}},
		{Name: "schema_version", Home: PostgresSchema, Since: V2, Key: key("version"),
			Columns: []Column{integer("version"), text("applied_at").notNull()}},
		{Name: "delivery_receipts", Home: Beside, Since: V2,
			Key: key("workspace_id", "session_id", "subject_kind", "subject_id", "kind", "channel"),
			Columns: []Column{text("workspace_id").notNull(), text("session_id").notNull(),
				text("subject_kind").notNull(), text("subject_id").notNull(), text("kind").notNull(),
				text("channel").notNull(), text("note"), text("recorded_at").notNull()}},
		{Name: "session_hosts", Home: Beside, Since: V2, Key: key("session_id"),
			Columns: []Column{text("session_id").notNull(), text("workspace_id").notNull(), text("kind").notNull(),
				text("client").notNull(), text("client_version").notNull(), text("principal").notNull(),
				text("machine").notNull(), integer("pid").notNull(), integer("process_start").notNull(),
				text("boot_id").notNull(), text("recorded_at").notNull()}},
		{Name: "journal_verified_heads", Home: SQLiteRecord, Since: V2, Key: key("workspace_id"),
			Columns: []Column{text("workspace_id").notNull(), text("epoch_id").notNull(), integer("sequence").notNull(),
				text("hash").notNull(), text("verified_at").notNull()}},
		{Name: "foreign_keys_checked", Home: SQLiteRecord, Since: V2, Key: key("table_name"),
			Columns: []Column{text("table_name").notNull(), integer("checked_rowid").notNull(), text("checked_at").notNull()}},
		{Name: "independence_folds", Home: SQLiteRecord, Since: V2, Key: key("workspace_id"),
			Columns: []Column{text("workspace_id").notNull(), text("epoch_id").notNull(), integer("sequence").notNull(),
				text("hash").notNull(), text("fold_json").notNull(), text("settled_json").notNull()}},
		{Name: "collab_task_counts", Home: SQLiteRecord, Since: V2, Key: key("workspace_id", "status"),
			Columns: []Column{text("workspace_id").notNull(), text("status").notNull(), integer("n").notNull()}},
	}
}

// tasks is the task table: the v0.1 columns, then the review, checkpoint
// and session-binding columns the v0.2 migration appends.
func tasks() Table {
	return Table{Name: "tasks", Home: Journal, Since: V1, Key: key("workspace_id", "id"), RowOrdered: true,
		Columns: []Column{text("id").notNull(), text("workspace_id").notNull(), text("title").notNull(),
			text("description"), text("status").notNull(), text("dependencies_json").notNull(),
			text("path_scopes_json").notNull(), text("assignee"), text("lease_id"), text("lease_expires_at"),
			text("blocker"), text("latest_progress"), integer("version").notNull(), text("created_at").notNull(),
			text("updated_at").notNull(), text("completed_at")},
		Added: []Column{text("coordination_mode").notNull().or("'legacy_v1'"),
			text("work_mode").notNull().or("'coordination'"), text("completion_policy").notNull().or("'reported'"),
			text("review_status").notNull().or("'legacy_unreviewed'"), integer("review_generation").notNull().or("0"),
			text("expected_base_sha"), text("base_checkpoint_json"), text("result_checkpoint_json"),
			text("completion_report_id"), text("assignee_session_id"), text("claim_worktree_id"), text("reported_by"),
			text("reported_by_session_id"), text("reported_at"), text("accepted_by"), text("accepted_by_session_id"),
			text("accepted_at")}}
}

// coordinationSessions is the credential-bound session table (the
// unreleased schema-2 preview named it "sessions").
func coordinationSessions() Table {
	return Table{Name: "coordination_sessions", Home: Journal, Since: V2, Key: key("id"),
		Columns: []Column{text("id"), text("workspace_id").notNull(), text("worktree_id").notNull(),
			text("actor").notNull(), text("role"), text("parent_session_id"), text("status").notNull(),
			integer("generation").notNull(), text("token_hash").notNull(), text("joined_at").notNull(),
			text("last_seen_at").notNull(), text("ended_at"), text("cursor_epoch_id").notNull(),
			integer("cursor_sequence").notNull(), text("cursor_hash").notNull(), integer("cursor_version").notNull().or("0"),
			integer("reset_generation").notNull().or("0"), integer("cursor_recovery_required").notNull().or("0")}}
}

// reports is the table of typed reports.
func reports() Table {
	return Table{Name: "reports", Home: Journal, Since: V2, Key: key("id"),
		Columns: []Column{text("id"), text("workspace_id").notNull(), text("task_id"), text("from_session_id"),
			text("from_actor").notNull(), text("to_session_id"), text("kind").notNull(), text("body").notNull(),
			text("evidence_refs_json").notNull(), text("confidence").notNull(), text("confidence_basis"), text("limits"),
			text("relation").notNull(), text("target_report_id"), text("authority_scope"), text("authority_basis"),
			text("created_at").notNull(), integer("event_sequence").notNull()}}
}

func text(name string) Column    { return Column{Name: name, Type: Text} }
func integer(name string) Column { return Column{Name: name, Type: Integer} }

// notNull returns c declared NOT NULL.
func (c Column) notNull() Column { c.NotNull = true; return c }

// or returns c with the default literal v.
func (c Column) or(v string) Column { c.Default = v; return c }

func key(cols ...string) []string { return cols }
