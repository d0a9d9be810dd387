package sqlite

// The schema is shared with @agenttool/collab byte for byte where it
// matters: table and column names, column order (the v3 shape is the v0.1
// tables followed by ALTER TABLE additions), CHECK sets, index and trigger
// names. A fresh database is created the way the reference creates one —
// the v0.1 tables first, then the v0.2/v0.3 additions in one transaction —
// so a file made here and a file made there have the same shape.

const (
	// ApplicationID marks a collab database ("ATCL").
	ApplicationID = 0x4154434C
	// SchemaVersion is the user_version this implementation reads and writes.
	SchemaVersion = 3
	// migrationProtocol is recorded in every schema_migrations row.
	migrationProtocol = "agenttool.collab/0.2"
	// guardAbortMessage is the text the write-guard triggers abort with.
	guardAbortMessage = "agenttool_collab_v2_write_requires_v2_client"
)

// legacySchema is the v0.1 layout: seven tables and their indexes.
var legacySchema = []string{
	`CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        epoch_id TEXT NOT NULL,
        root_path TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        event_head_sequence INTEGER NOT NULL DEFAULT 0,
        event_head_hash TEXT NOT NULL
      )`,
	`CREATE TABLE tasks (
        id TEXT NOT NULL,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        title TEXT NOT NULL,
        description TEXT,
        status TEXT NOT NULL CHECK(status IN ('open', 'claimed', 'blocked', 'completed')),
        dependencies_json TEXT NOT NULL,
        path_scopes_json TEXT NOT NULL,
        assignee TEXT,
        lease_id TEXT,
        lease_expires_at TEXT,
        blocker TEXT,
        latest_progress TEXT,
        version INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        completed_at TEXT,
        PRIMARY KEY (workspace_id, id)
      )`,
	`CREATE INDEX tasks_workspace_status_idx
        ON tasks(workspace_id, status, lease_expires_at)`,
	`CREATE TABLE artifacts (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK(kind IN ('file', 'commit', 'test', 'data', 'url', 'other')),
        uri TEXT NOT NULL,
        sha256 TEXT,
        media_type TEXT,
        label TEXT,
        attached_by TEXT NOT NULL,
        attached_at TEXT NOT NULL,
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
      )`,
	`CREATE INDEX artifacts_task_idx ON artifacts(workspace_id, task_id, attached_at)`,
	`CREATE TABLE decisions (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        topic TEXT NOT NULL,
        decision TEXT NOT NULL,
        rationale TEXT,
        recorded_by TEXT NOT NULL,
        recorded_at TEXT NOT NULL
      )`,
	`CREATE INDEX decisions_workspace_idx ON decisions(workspace_id, recorded_at)`,
	`CREATE TABLE handoffs (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        from_actor TEXT NOT NULL,
        to_actor TEXT NOT NULL,
        summary TEXT NOT NULL,
        status TEXT NOT NULL CHECK(status IN ('pending', 'accepted', 'declined', 'expired')),
        offered_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        resolved_at TEXT,
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
      )`,
	`CREATE INDEX handoffs_target_idx
        ON handoffs(workspace_id, to_actor, status, expires_at)`,
	`CREATE TABLE events (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        epoch_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        id TEXT NOT NULL UNIQUE,
        protocol TEXT NOT NULL,
        type TEXT NOT NULL,
        entity_id TEXT NOT NULL,
        actor TEXT NOT NULL,
        occurred_at TEXT NOT NULL,
        payload_json TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        PRIMARY KEY (workspace_id, sequence)
      )`,
	`CREATE TABLE mutations (
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        actor TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        operation TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        response_json TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (workspace_id, actor, idempotency_key)
      )`,
}

// v2Columns are the ALTER TABLE additions of the v0.2 protocol, in order.
var v2Columns = []string{
	`ALTER TABLE workspaces ADD COLUMN repository_key TEXT NOT NULL DEFAULT ''`,
	`ALTER TABLE tasks ADD COLUMN coordination_mode TEXT NOT NULL DEFAULT 'legacy_v1'
        CHECK(coordination_mode IN ('legacy_v1', 'session_v2'))`,
	`ALTER TABLE tasks ADD COLUMN work_mode TEXT NOT NULL DEFAULT 'coordination'
        CHECK(work_mode IN ('coordination', 'read_only', 'edit'))`,
	`ALTER TABLE tasks ADD COLUMN completion_policy TEXT NOT NULL DEFAULT 'reported'
        CHECK(completion_policy IN ('reported', 'accepted'))`,
	`ALTER TABLE tasks ADD COLUMN review_status TEXT NOT NULL DEFAULT 'legacy_unreviewed'
        CHECK(review_status IN ('legacy_unreviewed', 'not_required', 'pending', 'accepted', 'changes_requested'))`,
	`ALTER TABLE tasks ADD COLUMN review_generation INTEGER NOT NULL DEFAULT 0`,
	`ALTER TABLE tasks ADD COLUMN expected_base_sha TEXT`,
	`ALTER TABLE tasks ADD COLUMN base_checkpoint_json TEXT`,
	`ALTER TABLE tasks ADD COLUMN result_checkpoint_json TEXT`,
	`ALTER TABLE tasks ADD COLUMN completion_report_id TEXT`,
	`ALTER TABLE tasks ADD COLUMN assignee_session_id TEXT`,
	`ALTER TABLE tasks ADD COLUMN claim_worktree_id TEXT`,
	`ALTER TABLE tasks ADD COLUMN reported_by TEXT`,
	`ALTER TABLE tasks ADD COLUMN reported_by_session_id TEXT`,
	`ALTER TABLE tasks ADD COLUMN reported_at TEXT`,
	`ALTER TABLE tasks ADD COLUMN accepted_by TEXT`,
	`ALTER TABLE tasks ADD COLUMN accepted_by_session_id TEXT`,
	`ALTER TABLE tasks ADD COLUMN accepted_at TEXT`,
	`ALTER TABLE artifacts ADD COLUMN attached_by_session_id TEXT`,
	`ALTER TABLE handoffs ADD COLUMN from_session_id TEXT`,
	`ALTER TABLE handoffs ADD COLUMN to_session_id TEXT`,
	`ALTER TABLE events ADD COLUMN session_id TEXT`,
}

// presenceTable is the public v0.2 self-declared presence plane. It is
// created only if absent so that a v0.2 presence table is kept as it is.
var presenceTable = []string{
	`CREATE TABLE IF NOT EXISTS sessions (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        epoch_id TEXT NOT NULL,
        client_instance_id TEXT NOT NULL,
        actor_label TEXT NOT NULL,
        actor_key TEXT NOT NULL UNIQUE,
        runtime_kind TEXT NOT NULL,
        provider_label TEXT,
        model_label TEXT,
        declared_capabilities_json TEXT NOT NULL,
        version INTEGER NOT NULL,
        joined_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        presence_expires_at TEXT NOT NULL,
        left_at TEXT,
        UNIQUE (workspace_id, client_instance_id)
      )`,
	`CREATE INDEX IF NOT EXISTS sessions_workspace_presence_idx
        ON sessions(workspace_id, left_at, presence_expires_at)`,
}

// coordinationSessionsDDL creates the credential-bound session table under
// the given name (the unreleased schema-2 preview called it "sessions").
func coordinationSessionsDDL(table string) string {
	return `CREATE TABLE ` + table + ` (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        worktree_id TEXT NOT NULL REFERENCES worktrees(id),
        actor TEXT NOT NULL,
        role TEXT,
        parent_session_id TEXT REFERENCES ` + table + `(id),
        status TEXT NOT NULL CHECK(status IN ('active', 'ended')),
        generation INTEGER NOT NULL,
        token_hash TEXT NOT NULL,
        joined_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL,
        ended_at TEXT,
        cursor_epoch_id TEXT NOT NULL,
        cursor_sequence INTEGER NOT NULL,
        cursor_hash TEXT NOT NULL,
        cursor_version INTEGER NOT NULL DEFAULT 0,
        reset_generation INTEGER NOT NULL DEFAULT 0,
        cursor_recovery_required INTEGER NOT NULL DEFAULT 0
          CHECK(cursor_recovery_required IN (0, 1))
      )`
}

// v2Tables are the tables the v0.2 protocol adds, after the ALTERs and the
// presence table, in creation order.
var v2TablesBeforeSessions = []string{
	`CREATE TABLE repositories (
        key TEXT PRIMARY KEY,
        created_at TEXT NOT NULL
      )`,
	`CREATE TABLE worktrees (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        repository_key TEXT NOT NULL REFERENCES repositories(key),
        root_path TEXT NOT NULL UNIQUE,
        git_common_dir_hash TEXT,
        fingerprint TEXT NOT NULL,
        branch TEXT,
        head_sha TEXT,
        dirty INTEGER,
        registered_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL
      )`,
	`CREATE INDEX worktrees_repository_idx
        ON worktrees(repository_key, workspace_id)`,
}

var v2TablesAfterSessions = []string{
	`CREATE INDEX coordination_sessions_workspace_status_idx
        ON coordination_sessions(workspace_id, status, last_seen_at)`,
	`CREATE TABLE reports (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        task_id TEXT,
        from_session_id TEXT REFERENCES coordination_sessions(id),
        from_actor TEXT NOT NULL,
        to_session_id TEXT REFERENCES coordination_sessions(id),
        kind TEXT NOT NULL CHECK(kind IN ('observation', 'inference', 'proposal', 'decision')),
        body TEXT NOT NULL,
        evidence_refs_json TEXT NOT NULL,
        confidence TEXT NOT NULL CHECK(confidence IN ('high', 'medium', 'low', 'unknown')),
        confidence_basis TEXT,
        limits TEXT,
        relation TEXT NOT NULL CHECK(relation IN ('informs', 'supports', 'challenges', 'corrects', 'withdraws', 'supersedes', 'resolves')),
        target_report_id TEXT REFERENCES reports(id),
        authority_scope TEXT,
        authority_basis TEXT,
        created_at TEXT NOT NULL,
        event_sequence INTEGER NOT NULL,
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
      )`,
	`CREATE INDEX reports_workspace_event_idx
        ON reports(workspace_id, event_sequence)`,
	`CREATE INDEX reports_target_idx ON reports(target_report_id)`,
	`CREATE TABLE task_reviews (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        review_generation INTEGER NOT NULL,
        outcome TEXT NOT NULL CHECK(outcome IN ('accepted', 'changes_requested')),
        summary TEXT NOT NULL,
        reviewer_actor TEXT NOT NULL,
        reviewer_session_id TEXT NOT NULL REFERENCES coordination_sessions(id),
        created_at TEXT NOT NULL,
        event_sequence INTEGER NOT NULL,
        UNIQUE(workspace_id, task_id, review_generation),
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
      )`,
	`CREATE TABLE task_recoveries (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        prior_lease_id TEXT NOT NULL,
        prior_session_id TEXT,
        recovered_by_session_id TEXT NOT NULL REFERENCES coordination_sessions(id),
        action TEXT NOT NULL CHECK(action IN ('takeover', 'release', 'block')),
        note TEXT NOT NULL,
        prior_checkpoint_json TEXT,
        new_lease_id TEXT,
        recovered_at TEXT NOT NULL,
        event_sequence INTEGER NOT NULL,
        UNIQUE(workspace_id, task_id, prior_lease_id),
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
      )`,
	`CREATE TABLE session_cursor_resets (
        id TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES coordination_sessions(id),
        from_epoch_id TEXT NOT NULL,
        from_sequence INTEGER NOT NULL,
        from_hash TEXT NOT NULL,
        to_epoch_id TEXT NOT NULL,
        to_sequence INTEGER NOT NULL,
        to_hash TEXT NOT NULL,
        reason TEXT NOT NULL,
        reset_generation INTEGER NOT NULL,
        created_at TEXT NOT NULL
      )`,
	`CREATE TABLE v2_write_guard (
        nonce TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL CHECK(enabled = 1)
      )`,
	`CREATE TABLE schema_migrations (
        version INTEGER PRIMARY KEY,
        protocol TEXT NOT NULL,
        applied_at TEXT NOT NULL
      )`,
}

// guardNoV2Client is the condition under which a guarded write aborts,
// indented as the reference lays out its triggers.
const guardNoV2Client = `
        AND NOT EXISTS (SELECT 1 FROM v2_write_guard WHERE enabled = 1)`

const guardRaise = `
      BEGIN
        SELECT RAISE(ABORT, '` + guardAbortMessage + `');
      END`

// sessionV2Task is the condition of the artifact and handoff triggers: the
// row belongs to a session_v2 task.
const sessionV2Task = `
      WHEN EXISTS (
        SELECT 1 FROM tasks
        WHERE workspace_id = NEW.workspace_id AND id = NEW.task_id
          AND coordination_mode = 'session_v2'
      )`

// v2Guards are the index and triggers that close the v0.2 migration. Every
// trigger aborts a write that touches a session_v2 task unless the writer
// holds a v2_write_guard row in its transaction. The text (whitespace
// included) is what the reference stores in sqlite_master.
var v2Guards = []string{
	`CREATE INDEX workspaces_repository_idx ON workspaces(repository_key)`,
	`CREATE TRIGGER tasks_v2_insert_guard
      BEFORE INSERT ON tasks
      WHEN NEW.coordination_mode = 'session_v2'` + guardNoV2Client + guardRaise,
	`CREATE TRIGGER tasks_v2_update_guard
      BEFORE UPDATE ON tasks
      WHEN (OLD.coordination_mode = 'session_v2' OR NEW.coordination_mode = 'session_v2')` + guardNoV2Client + guardRaise,
	`CREATE TRIGGER tasks_v2_delete_guard
      BEFORE DELETE ON tasks
      WHEN OLD.coordination_mode = 'session_v2'` + guardNoV2Client + guardRaise,
	`CREATE TRIGGER artifacts_v2_insert_guard
      BEFORE INSERT ON artifacts` + sessionV2Task + guardNoV2Client + guardRaise,
	`CREATE TRIGGER handoffs_v2_insert_guard
      BEFORE INSERT ON handoffs` + sessionV2Task + guardNoV2Client + guardRaise,
}

// guardTriggers names the triggers shape validation requires.
var guardTriggers = []string{
	"tasks_v2_insert_guard", "tasks_v2_update_guard", "tasks_v2_delete_guard",
	"artifacts_v2_insert_guard", "handoffs_v2_insert_guard",
}
