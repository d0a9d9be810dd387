package sqltx

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// SessionHostsTable holds what holds each session (store.SessionHost).
// The reference ignores tables it does not know, so a file holding one
// still opens, verifies and continues there.
const SessionHostsTable = "session_hosts"

// SessionHostsDDL creates the session host table when it is missing.
var SessionHostsDDL = []string{
	`CREATE TABLE IF NOT EXISTS session_hosts (
  session_id TEXT NOT NULL PRIMARY KEY,
  workspace_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  client TEXT NOT NULL,
  client_version TEXT NOT NULL,
  principal TEXT NOT NULL,
  machine TEXT NOT NULL,
  pid INTEGER NOT NULL,
  process_start INTEGER NOT NULL,
  boot_id TEXT NOT NULL,
  recorded_at TEXT NOT NULL
)`,
	`CREATE INDEX IF NOT EXISTS session_hosts_workspace_idx ON session_hosts(workspace_id)`,
}

// PutSessionHost stores h, replacing its session's record. On an engine
// whose table is created on first use (Syntax.SessionHostsExist), the
// table is created inside this transaction.
func (t *Tx) PutSessionHost(ctx context.Context, h store.SessionHost) error {
	if err := t.ensureTable(ctx, t.d.sessionHostsExist, SessionHostsDDL); err != nil {
		return fmt.Errorf("create the session host table: %w", err)
	}
	if _, err := t.ExecContext(ctx, `INSERT INTO session_hosts (session_id, workspace_id, kind, client, client_version,
principal, machine, pid, process_start, boot_id, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (session_id) DO UPDATE SET workspace_id = excluded.workspace_id, kind = excluded.kind,
client = excluded.client, client_version = excluded.client_version, principal = excluded.principal,
machine = excluded.machine, pid = excluded.pid, process_start = excluded.process_start, boot_id = excluded.boot_id,
recorded_at = excluded.recorded_at`,
		h.SessionID, h.WorkspaceID, string(h.Kind), h.Client, h.ClientVersion, h.Principal, h.Machine, h.PID,
		h.ProcessStart, h.BootID, h.RecordedAt); err != nil {
		return fmt.Errorf("record the host of session %s: %w", h.SessionID, err)
	}
	return nil
}

// SessionHostsOf returns the records of a workspace's sessions, by id.
func (t *Tx) SessionHostsOf(ctx context.Context, workspaceID string) ([]store.SessionHost, error) {
	out := []store.SessionHost{}
	exists, err := t.tableExists(ctx, t.d.sessionHostsExist)
	if err != nil || !exists {
		return out, err
	}
	rows, err := t.QueryContext(ctx, `SELECT session_id, workspace_id, kind, client, client_version, principal, machine,
pid, process_start, boot_id, recorded_at FROM session_hosts WHERE workspace_id = ? ORDER BY session_id`, workspaceID)
	if err != nil {
		return nil, fmt.Errorf("read the session hosts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var h store.SessionHost
		var kind string
		if err := rows.Scan(&h.SessionID, &h.WorkspaceID, &kind, &h.Client, &h.ClientVersion, &h.Principal, &h.Machine,
			&h.PID, &h.ProcessStart, &h.BootID, &h.RecordedAt); err != nil {
			return nil, fmt.Errorf("read the session hosts: %w", err)
		}
		h.Kind = store.HostKind(kind)
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the session hosts: %w", err)
	}
	return out, nil
}

// tableExists reports whether a table made on first use is there: always
// on an engine that creates it with its schema (an empty query), else as
// the dialect's query counts.
func (t *Tx) tableExists(ctx context.Context, query string) (bool, error) {
	if query == "" {
		return true, nil
	}
	var n int64
	if err := t.QueryRowContext(ctx, query).Scan(&n); err != nil {
		return false, fmt.Errorf("look for a table: %w", err)
	}
	return n > 0, nil
}

// ensureTable runs ddl when a table made on first use is missing.
func (t *Tx) ensureTable(ctx context.Context, query string, ddl []string) error {
	exists, err := t.tableExists(ctx, query)
	if err != nil || exists {
		return err
	}
	for _, stmt := range ddl {
		if _, err := t.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}
