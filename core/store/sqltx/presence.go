package sqltx

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

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

// Presence reads the hint k names, by its primary key or by the unique
// (workspace_id, client_instance_id).
func (t *Tx) Presence(ctx context.Context, k store.PresenceKey) (store.Presence, bool, error) {
	if k.ID != "" {
		return t.presenceRow(ctx, "id = ?", k.ID)
	}
	return t.presenceRow(ctx, "workspace_id = ? AND client_instance_id = ?", k.WorkspaceID, k.ClientInstanceID)
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

// Presences lists the workspace's hints that f selects, newest first. The
// state conditions are on sessions_workspace_presence_idx's columns, so the
// listing stays on that index as it did when it was PresenceList.
func (t *Tx) Presences(ctx context.Context, workspaceID string, f store.PresenceFilter) ([]store.Presence, error) {
	query := "workspace_id = ?"
	args := []any{workspaceID}
	switch f.State {
	case store.PresenceAny:
	case store.PresenceLive:
		query += " AND left_at IS NULL AND presence_expires_at > ?"
		args = append(args, f.At)
	case store.PresenceStale:
		query += " AND left_at IS NULL AND presence_expires_at <= ?"
		args = append(args, f.At)
	case store.PresenceLeft:
		query += " AND left_at IS NOT NULL"
	default:
		return nil, fmt.Errorf("list presence: unknown state %q", f.State)
	}
	if f.State != store.PresenceAny && f.State != store.PresenceLeft && f.At == "" {
		return nil, fmt.Errorf("list presence: state %q needs a moment", f.State)
	}
	query += " ORDER BY joined_at DESC, id DESC"
	if f.Limit > 0 {
		query += " LIMIT ?"
		args = append(args, t.d.limit(f.Limit))
	}
	return t.presenceRows(ctx, query, args...)
}

// UpdatePresence writes the columns in which after differs from before,
// fenced by before's version (store.Presences.UpdatePresence).
func (t *Tx) UpdatePresence(ctx context.Context, before, after store.Presence) error {
	if err := presenceFixed(before, after); err != nil {
		return fmt.Errorf("update presence %s: %w", before.ID, err)
	}
	set := PresenceChanges(before, after)
	res, err := t.ExecContext(ctx, "UPDATE sessions SET "+set.Clause()+" WHERE id = ? AND version = ?",
		append(set.Args(), before.ID, before.Version)...)
	if err != nil {
		return fmt.Errorf("update presence %s: %w", before.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("update presence %s: %w", before.ID, err)
	}
	if n != 1 {
		return fmt.Errorf("update presence %s: the stored hint is not at version %d", before.ID, before.Version)
	}
	return nil
}

// PresenceChanges is the assignment of every column a presence write may
// change in which after differs from before, the version first (it always
// changes).
func PresenceChanges(before, after store.Presence) Assignments {
	var a Assignments
	a.Set("version", before.Version != after.Version, after.Version)
	a.Set("last_seen_at", before.LastSeenAt != after.LastSeenAt, after.LastSeenAt)
	a.Set("presence_expires_at", before.PresenceExpiresAt != after.PresenceExpiresAt, after.PresenceExpiresAt)
	a.Set("left_at", !equalText(before.LeftAt, after.LeftAt), after.LeftAt)
	return a
}

// presenceFixed refuses a write that moves the version by other than one
// or changes a column a hint keeps for life (everything but the four
// PresenceChanges compares).
func presenceFixed(before, after store.Presence) error {
	if after.Version != before.Version+1 {
		return fmt.Errorf("version %d does not follow %d", after.Version, before.Version)
	}
	same := before.ID == after.ID && before.WorkspaceID == after.WorkspaceID && before.EpochID == after.EpochID &&
		before.ClientInstanceID == after.ClientInstanceID && before.ActorLabel == after.ActorLabel &&
		before.ActorKey == after.ActorKey && before.RuntimeKind == after.RuntimeKind &&
		equalText(before.ProviderLabel, after.ProviderLabel) && equalText(before.ModelLabel, after.ModelLabel) &&
		slices.Equal(before.DeclaredCapabilities, after.DeclaredCapabilities) && before.JoinedAt == after.JoinedAt
	if !same {
		return errors.New("only the version, last_seen_at, presence_expires_at and left_at of a hint change")
	}
	return nil
}
