package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
)

// presenceProtocol labels every presence record.
const presenceProtocol = "agenttool.collab.session/0.1"

// Presence is a self-declared, unauthenticated routing hint. It is never
// journaled, never authenticates and never touches task leases.
type Presence struct {
	Protocol             string   `json:"protocol"`
	ID                   string   `json:"id"`
	WorkspaceID          string   `json:"workspace_id"`
	EpochID              string   `json:"epoch_id"`
	ClientInstanceID     string   `json:"client_instance_id"`
	ActorLabel           string   `json:"actor_label"`
	ActorKey             string   `json:"actor_key"`
	RuntimeKind          string   `json:"runtime_kind"`
	ProviderLabel        *string  `json:"provider_label"`
	ModelLabel           *string  `json:"model_label"`
	DeclaredCapabilities []string `json:"declared_capabilities"`
	CapabilityBasis      string   `json:"capability_basis"`
	Version              int64    `json:"version"`
	JoinedAt             string   `json:"joined_at"`
	LastSeenAt           string   `json:"last_seen_at"`
	PresenceExpiresAt    string   `json:"presence_expires_at"`
	Presence             string   `json:"presence"`
	LeftAt               *string  `json:"left_at"`
}

const presenceSelect = `id, workspace_id, epoch_id, client_instance_id, actor_label, actor_key, runtime_kind, provider_label,
model_label, declared_capabilities_json, version, joined_at, last_seen_at, presence_expires_at, left_at`

func scanPresence(row rowScanner, now string) (Presence, error) {
	p := Presence{Protocol: presenceProtocol, CapabilityBasis: "self_declared"}
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
	p.Presence = presenceAt(p, now)
	return p, nil
}

// presenceAt is left once left, live until its expiry, then stale.
func presenceAt(p Presence, now string) string {
	switch {
	case p.LeftAt != nil:
		return "left"
	case now < p.PresenceExpiresAt:
		return "live"
	default:
		return "stale"
	}
}

// JoinInput is a self-declared presence announcement.
type JoinInput struct {
	WorkspaceID, ClientInstanceID, ActorLabel, RuntimeKind string
	ProviderLabel, ModelLabel                              *string
	Capabilities                                           []string
	TTLSeconds                                             *int64
}

type joinFields struct {
	workspaceID, client, label, runtime string
	provider, model                     *string
	caps                                []string
	ttl                                 int64
}

func normalizeJoin(in JoinInput) (joinFields, error) {
	var f joinFields
	var err error
	if f.workspaceID, err = normalize.ID(in.WorkspaceID, "workspace_id"); err != nil {
		return f, err
	}
	if f.client, err = normalize.ID(in.ClientInstanceID, "client_instance_id"); err != nil {
		return f, err
	}
	if f.label, err = normalize.Actor(in.ActorLabel); err != nil {
		return f, err
	}
	if f.runtime, err = normalize.RuntimeKind(in.RuntimeKind); err != nil {
		return f, err
	}
	// Blank labels ("   ", U+3000, U+FEFF) count as absent, as the
	// reference treats them; a rejoin then compares null with the stored
	// label like any other value.
	if f.provider, err = normalize.OptionalText(in.ProviderLabel, "provider_label", 100); err != nil {
		return f, err
	}
	if f.model, err = normalize.OptionalText(in.ModelLabel, "model_label", 200); err != nil {
		return f, err
	}
	caps := in.Capabilities
	if caps == nil {
		caps = []string{}
	}
	if f.caps, err = normalize.Capabilities(caps); err != nil {
		return f, err
	}
	f.ttl, err = normalize.PresenceTTL(in.TTLSeconds)
	return f, err
}

// JoinPresence records a presence hint, or replays the one this client
// instance already has when its self-declared metadata is unchanged.
func (s *Store) JoinPresence(ctx context.Context, in JoinInput) (Presence, error) {
	f, err := normalizeJoin(in)
	if err != nil {
		return Presence{}, err
	}
	var out Presence
	err = s.writeTx(ctx, func(tx *Tx) error {
		ws, err := readWorkspace(ctx, tx, f.workspaceID)
		if err != nil {
			return err
		}
		now := s.nowISO()
		existing, err := scanPresence(tx.QueryRowContext(ctx, "SELECT "+presenceSelect+
			" FROM sessions WHERE workspace_id = ? AND client_instance_id = ?", f.workspaceID, f.client), now)
		if err == nil {
			out, err = replayJoin(existing, f)
			return err
		}
		if err != sql.ErrNoRows {
			return fmt.Errorf("read presence: %w", err)
		}
		out, err = insertPresence(ctx, tx, ws, f, now)
		return err
	})
	return out, err
}

func replayJoin(p Presence, f joinFields) (Presence, error) {
	same := p.ActorLabel == f.label && p.RuntimeKind == f.runtime && equalPtr(p.ProviderLabel, f.provider) &&
		equalPtr(p.ModelLabel, f.model) && slices.Equal(p.DeclaredCapabilities, f.caps)
	if !same {
		return p, collaberr.New(collaberr.SessionInstanceConflict,
			"This client_instance_id already joined with different self-declared details; use a new client_instance_id").
			With("session_id", p.ID)
	}
	if p.LeftAt != nil {
		return p, collaberr.New(collaberr.SessionInstanceEnded,
			"This presence incarnation already left; join with a new client_instance_id").With("session_id", p.ID)
	}
	return p, nil
}

func equalPtr(a, b *string) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

func insertPresence(ctx context.Context, tx *Tx, ws Workspace, f joinFields, now string) (Presence, error) {
	id := "session_" + newUUID()
	caps, err := marshalNoEscape(f.caps)
	if err != nil {
		return Presence{}, err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO sessions (id, workspace_id, epoch_id, client_instance_id, actor_label, actor_key,
runtime_kind, provider_label, model_label, declared_capabilities_json, version, joined_at, last_seen_at, presence_expires_at, left_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, NULL)`, id, ws.ID, ws.EpochID, f.client, f.label, "session:"+id, f.runtime,
		f.provider, f.model, string(caps), now, now, addSeconds(now, f.ttl))
	if err != nil {
		return Presence{}, fmt.Errorf("insert presence: %w", err)
	}
	return scanPresence(tx.QueryRowContext(ctx, "SELECT "+presenceSelect+" FROM sessions WHERE id = ?", id), now)
}

// ListPresence lists presence hints newest first; the presence filter is
// applied before the limit.
func (s *Store) ListPresence(ctx context.Context, workspaceID string, presence *string, limit *int64) ([]Presence, error) {
	wsID, err := normalize.ID(workspaceID, "workspace_id")
	if err != nil {
		return nil, err
	}
	if _, err := readWorkspace(ctx, s.read, wsID); err != nil {
		return nil, err
	}
	n := int64(100)
	if limit != nil {
		n = *limit
	}
	now := s.nowISO()
	query := "SELECT " + presenceSelect + " FROM sessions WHERE workspace_id = ?"
	args := []any{wsID}
	if presence != nil {
		switch *presence {
		case "live":
			query += " AND left_at IS NULL AND presence_expires_at > ?"
			args = append(args, now)
		case "stale":
			query += " AND left_at IS NULL AND presence_expires_at <= ?"
			args = append(args, now)
		case "left":
			query += " AND left_at IS NOT NULL"
		default:
			return nil, collaberr.New(collaberr.InvalidPresence, "presence must be live, stale or left")
		}
	}
	if n < 1 || n > 500 {
		return nil, collaberr.New(collaberr.InvalidSessionListLimit, "limit must be a whole number from 1 to 500")
	}
	rows, err := s.read.QueryContext(ctx, query+" ORDER BY joined_at DESC, id DESC LIMIT ?", append(args, n)...)
	if err != nil {
		return nil, fmt.Errorf("list presence: %w", err)
	}
	defer rows.Close()
	out := []Presence{}
	for rows.Next() {
		p, err := scanPresence(rows, now)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}
