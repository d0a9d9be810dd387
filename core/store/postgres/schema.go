package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/agenttool/collab/core/store/sqltx"
)

// SchemaName is the PostgreSQL schema that holds every collab table, so
// that a database can host collab beside other applications.
const SchemaName = "collab"

// SchemaVersion is the version of the table layout this engine reads and
// writes, recorded in collab.schema_version. The binary creates the schema
// on first open (there is no separate migrate step yet); an open that
// finds a newer version refuses it, like the SQLite engine refuses a newer
// file.
const SchemaVersion = 1

// schemaLock is the advisory lock key (an arbitrary constant, "ATCL") that
// serialises schema creation between processes opening an empty database
// at the same moment.
const schemaLock = 0x4154434C

// tables is the current layout: the SQLite engine's tables and columns,
// in its column order, with these differences. Text columns compare
// bytewise (COLLATE "C"), as SQLite's do, so that every ORDER BY yields
// the same order on both engines whatever the database's locale. Integers
// are 64-bit, as SQLite's. Flags stay integers (0 or 1), as SQLite stores
// them. Tables whose rows SQLite orders by rowid carry row_id, an identity
// column that plays that part. No v0.2 write-guard triggers: no older
// client reaches a PostgreSQL journal.
var tables = []string{
	`CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  epoch_id TEXT NOT NULL,
  root_path TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  event_head_sequence BIGINT NOT NULL DEFAULT 0,
  event_head_hash TEXT NOT NULL,
  repository_key TEXT NOT NULL DEFAULT '',
  row_id BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
)`,
	`CREATE INDEX workspaces_repository_idx ON workspaces(repository_key)`,
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
  version BIGINT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  completed_at TEXT,
  coordination_mode TEXT NOT NULL DEFAULT 'legacy_v1' CHECK(coordination_mode IN ('legacy_v1', 'session_v2')),
  work_mode TEXT NOT NULL DEFAULT 'coordination' CHECK(work_mode IN ('coordination', 'read_only', 'edit')),
  completion_policy TEXT NOT NULL DEFAULT 'reported' CHECK(completion_policy IN ('reported', 'accepted')),
  review_status TEXT NOT NULL DEFAULT 'legacy_unreviewed' CHECK(review_status IN ('legacy_unreviewed', 'not_required', 'pending', 'accepted', 'changes_requested')),
  review_generation BIGINT NOT NULL DEFAULT 0,
  expected_base_sha TEXT,
  base_checkpoint_json TEXT,
  result_checkpoint_json TEXT,
  completion_report_id TEXT,
  assignee_session_id TEXT,
  claim_worktree_id TEXT,
  reported_by TEXT,
  reported_by_session_id TEXT,
  reported_at TEXT,
  accepted_by TEXT,
  accepted_by_session_id TEXT,
  accepted_at TEXT,
  row_id BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
  PRIMARY KEY (workspace_id, id)
)`,
	`CREATE INDEX tasks_workspace_status_idx ON tasks(workspace_id, status, lease_expires_at)`,
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
  attached_by_session_id TEXT,
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
  from_session_id TEXT,
  to_session_id TEXT,
  row_id BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE,
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
)`,
	`CREATE INDEX handoffs_target_idx ON handoffs(workspace_id, to_actor, status, expires_at)`,
	`CREATE TABLE events (
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  epoch_id TEXT NOT NULL,
  sequence BIGINT NOT NULL,
  id TEXT NOT NULL UNIQUE,
  protocol TEXT NOT NULL,
  type TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  actor TEXT NOT NULL,
  occurred_at TEXT NOT NULL,
  payload_json TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  session_id TEXT,
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
	`CREATE TABLE sessions (
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
  version BIGINT NOT NULL,
  joined_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  presence_expires_at TEXT NOT NULL,
  left_at TEXT,
  UNIQUE (workspace_id, client_instance_id)
)`,
	`CREATE INDEX sessions_workspace_presence_idx ON sessions(workspace_id, left_at, presence_expires_at)`,
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
  dirty BIGINT,
  registered_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL
)`,
	`CREATE INDEX worktrees_repository_idx ON worktrees(repository_key, workspace_id)`,
	`CREATE TABLE coordination_sessions (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL REFERENCES workspaces(id),
  worktree_id TEXT NOT NULL REFERENCES worktrees(id),
  actor TEXT NOT NULL,
  role TEXT,
  parent_session_id TEXT REFERENCES coordination_sessions(id),
  status TEXT NOT NULL CHECK(status IN ('active', 'ended')),
  generation BIGINT NOT NULL,
  token_hash TEXT NOT NULL,
  joined_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  ended_at TEXT,
  cursor_epoch_id TEXT NOT NULL,
  cursor_sequence BIGINT NOT NULL,
  cursor_hash TEXT NOT NULL,
  cursor_version BIGINT NOT NULL DEFAULT 0,
  reset_generation BIGINT NOT NULL DEFAULT 0,
  cursor_recovery_required BIGINT NOT NULL DEFAULT 0 CHECK(cursor_recovery_required IN (0, 1))
)`,
	`CREATE INDEX coordination_sessions_workspace_status_idx ON coordination_sessions(workspace_id, status, last_seen_at)`,
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
  event_sequence BIGINT NOT NULL,
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
)`,
	`CREATE INDEX reports_workspace_event_idx ON reports(workspace_id, event_sequence)`,
	`CREATE INDEX reports_target_idx ON reports(target_report_id)`,
	`CREATE TABLE task_reviews (
  id TEXT PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  review_generation BIGINT NOT NULL,
  outcome TEXT NOT NULL CHECK(outcome IN ('accepted', 'changes_requested')),
  summary TEXT NOT NULL,
  reviewer_actor TEXT NOT NULL,
  reviewer_session_id TEXT NOT NULL REFERENCES coordination_sessions(id),
  created_at TEXT NOT NULL,
  event_sequence BIGINT NOT NULL,
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
  event_sequence BIGINT NOT NULL,
  UNIQUE(workspace_id, task_id, prior_lease_id),
  FOREIGN KEY (workspace_id, task_id) REFERENCES tasks(workspace_id, id)
)`,
	`CREATE TABLE session_cursor_resets (
  id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL REFERENCES coordination_sessions(id),
  from_epoch_id TEXT NOT NULL,
  from_sequence BIGINT NOT NULL,
  from_hash TEXT NOT NULL,
  to_epoch_id TEXT NOT NULL,
  to_sequence BIGINT NOT NULL,
  to_hash TEXT NOT NULL,
  reason TEXT NOT NULL,
  reset_generation BIGINT NOT NULL,
  created_at TEXT NOT NULL
)`,
}

// schemaVersionDDL creates the table that records the schema's version.
const schemaVersionDDL = `CREATE TABLE schema_version (
  version BIGINT PRIMARY KEY,
  applied_at TEXT NOT NULL
)`

// bytewise makes every text column of a CREATE TABLE compare bytewise.
func bytewise(ddl string) string {
	return strings.ReplaceAll(ddl, " TEXT", ` TEXT COLLATE "C"`)
}

// prepareSchema creates the collab schema when the database has none, or
// checks the version of the one it has, in one transaction that holds an
// advisory lock, so that processes opening a new database together create
// it once.
func (e *Engine) prepareSchema(ctx context.Context) error {
	tx, err := e.pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin schema check: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below when anything was created
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", schemaLock); err != nil {
		return fmt.Errorf("lock schema: %w", err)
	}
	var version sql.NullInt64
	err = tx.QueryRowContext(ctx, `SELECT max(version) FROM `+SchemaName+`.schema_version`).Scan(&version)
	switch {
	case err == nil && version.Valid && version.Int64 == SchemaVersion:
		if err := checkShape(ctx, tx); err != nil {
			return err
		}
		if err := addDeliveries(ctx, tx); err != nil {
			return err
		}
		if err := addSessionHosts(ctx, tx); err != nil {
			return err
		}
		return tx.Commit()
	case err == nil && version.Valid && version.Int64 > SchemaVersion:
		return fmt.Errorf("the %s schema is at version %d, newer than this binary's %d: upgrade collab",
			SchemaName, version.Int64, SchemaVersion)
	case err == nil:
		return fmt.Errorf("the %s schema has no usable version (found %v): it was not made by collab", SchemaName, version)
	}
	// The version table is missing: the query failed, which aborted the
	// transaction. Start again and create everything.
	_ = tx.Rollback()
	return e.createSchema(ctx)
}

func (e *Engine) createSchema(ctx context.Context) error {
	tx, err := e.pool.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin schema creation: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", schemaLock); err != nil {
		return fmt.Errorf("lock schema: %w", err)
	}
	var exists bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_namespace WHERE nspname = $1)`,
		SchemaName).Scan(&exists); err != nil {
		return fmt.Errorf("look for the %s schema: %w", SchemaName, err)
	}
	if exists {
		var made bool
		if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
WHERE schemaname = $1 AND tablename = 'schema_version')`, SchemaName).Scan(&made); err != nil {
			return fmt.Errorf("look for the %s schema version: %w", SchemaName, err)
		}
		if made {
			// Another process created it while this one waited.
			return nil
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = $1`,
			SchemaName).Scan(&n); err != nil {
			return fmt.Errorf("list the %s schema: %w", SchemaName, err)
		}
		if n > 0 {
			return fmt.Errorf("the database has a %s schema that collab did not make (tables but no schema_version); "+
				"use another database or remove it", SchemaName)
		}
	} else if _, err := tx.ExecContext(ctx, "CREATE SCHEMA "+SchemaName); err != nil {
		return fmt.Errorf("create the %s schema: %w", SchemaName, err)
	}
	for _, ddl := range tables {
		if _, err := tx.ExecContext(ctx, bytewise(ddl)); err != nil {
			return fmt.Errorf("create the %s schema: %w", SchemaName, err)
		}
	}
	if err := addDeliveries(ctx, tx); err != nil {
		return err
	}
	if err := addSessionHosts(ctx, tx); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, schemaVersionDDL); err != nil {
		return fmt.Errorf("create the %s schema: %w", SchemaName, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_version (version, applied_at) VALUES ($1, $2)", SchemaVersion,
		time.Now().UTC().Format("2006-01-02T15:04:05.000Z")); err != nil {
		return fmt.Errorf("record the %s schema version: %w", SchemaName, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit the %s schema: %w", SchemaName, err)
	}
	return nil
}

// addDeliveries creates the delivery table (sqltx.DeliveriesDDL) of a
// journal made before it existed, under the schema lock, so no write
// transaction ever has to. It looks first: a role that may not create
// tables opens a journal that already has it.
func addDeliveries(ctx context.Context, tx *sql.Tx) error {
	var present bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
WHERE schemaname = $1 AND tablename = $2)`, SchemaName, sqltx.DeliveriesTable).Scan(&present); err != nil {
		return fmt.Errorf("look for the %s delivery table: %w", SchemaName, err)
	}
	if present {
		return nil
	}
	for _, ddl := range sqltx.DeliveriesDDL {
		if _, err := tx.ExecContext(ctx, bytewise(ddl)); err != nil {
			return fmt.Errorf("create the %s delivery table: %w", SchemaName, err)
		}
	}
	return nil
}

// sessionHostsDDL is a statement of sqltx.SessionHostsDDL as this engine
// declares it: bytewise text, and 64-bit integers (a process start time in
// clock ticks outgrows 32 bits).
func sessionHostsDDL(ddl string) string {
	return strings.ReplaceAll(bytewise(ddl), " INTEGER", " BIGINT")
}

// addSessionHosts creates the session host table (sqltx.SessionHostsDDL)
// of a journal made before it existed, as addDeliveries does, except that
// a role that may not create it still opens the journal: the records only
// inform people's views, so until the owner opens the journal once (see
// docs/postgres.md, "Least-privilege role") none are kept, and reads find
// none (the dialect looks for the table first).
func addSessionHosts(ctx context.Context, tx *sql.Tx) error {
	var present bool
	if err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables
WHERE schemaname = $1 AND tablename = $2)`, SchemaName, sqltx.SessionHostsTable).Scan(&present); err != nil {
		return fmt.Errorf("look for the %s session host table: %w", SchemaName, err)
	}
	if present {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "SAVEPOINT session_hosts"); err != nil {
		return fmt.Errorf("create the %s session host table: %w", SchemaName, err)
	}
	for _, ddl := range sqltx.SessionHostsDDL {
		if _, err := tx.ExecContext(ctx, sessionHostsDDL(ddl)); err != nil {
			if _, err := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT session_hosts"); err != nil {
				return fmt.Errorf("create the %s session host table: %w", SchemaName, err)
			}
			return nil
		}
	}
	return nil
}
