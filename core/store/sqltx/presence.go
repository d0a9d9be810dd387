package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/store"
)

// presenceFields is the column list readPresence reads.
const presenceFields = `id, workspace_id, epoch_id, client_instance_id, actor_label, actor_key, runtime_kind, provider_label,
model_label, declared_capabilities_json, version, joined_at, last_seen_at, presence_expires_at, left_at`

// readPresence reads one row selected with presenceFields; the protocol,
// capability basis and state are the rules' to set.
func readPresence(row interface{ Scan(dest ...any) error }) (store.Presence, error) {
	var p store.Presence
	var caps string
	err := row.Scan(&p.ID, &p.WorkspaceID, &p.EpochID, &p.ClientInstanceID, &p.ActorLabel, &p.ActorKey, &p.RuntimeKind,
		&p.ProviderLabel, &p.ModelLabel, &caps, &p.Version, &p.JoinedAt, &p.LastSeenAt, &p.PresenceExpiresAt, &p.LeftAt)
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal([]byte(caps), &p.DeclaredCapabilities); err != nil {
		return p, fmt.Errorf("presence %s capabilities: %w", p.ID, err)
	}
	if p.DeclaredCapabilities == nil {
		p.DeclaredCapabilities = []string{}
	}
	return p, nil
}

// presenceRow reads the one presence row that the condition selects.
func (t *Tx) presenceRow(ctx context.Context, where string, args ...any) (store.Presence, bool, error) {
	p, err := readPresence(t.QueryRowContext(ctx, "SELECT "+presenceFields+" FROM sessions WHERE "+where, args...))
	if err == sql.ErrNoRows {
		return p, false, nil
	}
	if err != nil {
		return p, false, fmt.Errorf("read presence: %w", err)
	}
	return p, true, nil
}

// presenceRows reads the presence rows that the rest of a query selects;
// never nil.
func (t *Tx) presenceRows(ctx context.Context, rest string, args ...any) ([]store.Presence, error) {
	rows, err := t.QueryContext(ctx, "SELECT "+presenceFields+" FROM sessions WHERE "+rest, args...)
	if err != nil {
		return nil, fmt.Errorf("list presence: %w", err)
	}
	defer rows.Close()
	out := []store.Presence{}
	for rows.Next() {
		p, err := readPresence(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// PresenceByID reads one presence hint.
func (t *Tx) PresenceByID(ctx context.Context, id string) (store.Presence, bool, error) {
	return t.presenceRow(ctx, "id = ?", id)
}

// PresenceOfClient reads the workspace's hint of one client instance.
func (t *Tx) PresenceOfClient(ctx context.Context, workspaceID, clientInstanceID string) (store.Presence, bool, error) {
	return t.presenceRow(ctx, "workspace_id = ? AND client_instance_id = ?", workspaceID, clientInstanceID)
}

// InsertPresence stores a new presence hint. The capabilities are stored
// as canonical JSON; being short symbolic ASCII names (the rules refuse any
// other), they read the same as the reference's JSON.stringify.
func (t *Tx) InsertPresence(ctx context.Context, p store.NewPresence) error {
	caps := p.DeclaredCapabilities
	if caps == nil {
		caps = []string{}
	}
	capsJSON, err := canon.Marshal(caps)
	if err != nil {
		return fmt.Errorf("encode capabilities: %w", err)
	}
	_, err = t.ExecContext(ctx, `INSERT INTO sessions (id, workspace_id, epoch_id, client_instance_id, actor_label, actor_key,
runtime_kind, provider_label, model_label, declared_capabilities_json, version, joined_at, last_seen_at, presence_expires_at, left_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, NULL)`, p.ID, p.WorkspaceID, p.EpochID, p.ClientInstanceID, p.ActorLabel,
		p.ActorKey, p.RuntimeKind, p.ProviderLabel, p.ModelLabel, string(capsJSON), p.JoinedAt, p.JoinedAt, p.ExpiresAt)
	if err != nil {
		return fmt.Errorf("insert presence: %w", err)
	}
	return nil
}

// PresenceList lists the workspace's hints in state at now, newest first.
func (t *Tx) PresenceList(ctx context.Context, workspaceID string, state store.PresenceState, now string, limit int64) ([]store.Presence, error) {
	query := "workspace_id = ?"
	args := []any{workspaceID}
	switch state {
	case store.PresenceAny:
	case store.PresenceLive:
		query += " AND left_at IS NULL AND presence_expires_at > ?"
		args = append(args, now)
	case store.PresenceStale:
		query += " AND left_at IS NULL AND presence_expires_at <= ?"
		args = append(args, now)
	case store.PresenceLeft:
		query += " AND left_at IS NOT NULL"
	default:
		return nil, fmt.Errorf("list presence: unknown state %q", state)
	}
	return t.presenceRows(ctx, query+" ORDER BY joined_at DESC, id DESC LIMIT ?", append(args, t.d.limit(limit))...)
}

// PresenceBySeen lists every hint of the workspace, most recently seen
// first.
func (t *Tx) PresenceBySeen(ctx context.Context, workspaceID string) ([]store.Presence, error) {
	return t.presenceRows(ctx, "workspace_id = ? ORDER BY last_seen_at DESC, id", workspaceID)
}

// RefreshPresence records a heartbeat.
func (t *Tx) RefreshPresence(ctx context.Context, id, now, expiresAt string) error {
	_, err := t.ExecContext(ctx, `UPDATE sessions SET version = version + 1, last_seen_at = ?, presence_expires_at = ?
WHERE id = ?`, now, expiresAt, id)
	if err != nil {
		return fmt.Errorf("refresh presence: %w", err)
	}
	return nil
}

// MarkPresenceLeft records that the hint left.
func (t *Tx) MarkPresenceLeft(ctx context.Context, id, now string) error {
	_, err := t.ExecContext(ctx, "UPDATE sessions SET version = version + 1, left_at = ? WHERE id = ?", now, id)
	if err != nil {
		return fmt.Errorf("leave presence: %w", err)
	}
	return nil
}
