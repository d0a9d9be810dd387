package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/normalize"
)

// presenceProtocol labels every presence record.
const presenceProtocol = "agenttool.collab.session/0.1"

// shownPresence completes a stored hint with what the rules add: the
// protocol label, the capability basis and its state at now.
func shownPresence(p Presence, now string) Presence {
	p.Protocol, p.CapabilityBasis = presenceProtocol, "self_declared"
	p.Presence = presenceAt(p, now)
	return p
}

// shownPresences completes every hint of a listing (see shownPresence).
func shownPresences(list []Presence, now string) []Presence {
	for i := range list {
		list[i] = shownPresence(list[i], now)
	}
	return list
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
	if f.provider, err = normalize.Optional(in.ProviderLabel, field.ProviderLabel); err != nil {
		return f, err
	}
	if f.model, err = normalize.Optional(in.ModelLabel, field.ModelLabel); err != nil {
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
	err = s.writeTx(ctx, func(tx Tx) error {
		ws, err := readWorkspace(ctx, tx, f.workspaceID)
		if err != nil {
			return err
		}
		now := s.nowISO()
		existing, found, err := tx.Presence(ctx, PresenceKey{WorkspaceID: f.workspaceID, ClientInstanceID: f.client})
		if err != nil {
			return err
		}
		if found {
			out, err = replayJoin(shownPresence(existing, now), f)
			return err
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

func insertPresence(ctx context.Context, tx Presences, ws Workspace, f joinFields, now string) (Presence, error) {
	id := "session_" + newUUID()
	err := tx.InsertPresence(ctx, NewPresence{ID: id, WorkspaceID: ws.ID, EpochID: ws.EpochID,
		ClientInstanceID: f.client, ActorLabel: f.label, ActorKey: "session:" + id, RuntimeKind: f.runtime,
		ProviderLabel: f.provider, ModelLabel: f.model, DeclaredCapabilities: f.caps, JoinedAt: now,
		ExpiresAt: addSeconds(now, f.ttl)})
	if err != nil {
		return Presence{}, err
	}
	p, found, err := presenceByID(ctx, tx, id)
	if err == nil && !found {
		err = fmt.Errorf("presence %s vanished after its insert", id)
	}
	return shownPresence(p, now), err
}

// ListPresence lists presence hints newest first; the presence filter is
// applied before the limit.
func (s *Store) ListPresence(ctx context.Context, workspaceID string, presence *string, limit *int64) ([]Presence, error) {
	wsID, err := normalize.ID(workspaceID, "workspace_id")
	if err != nil {
		return nil, err
	}
	var out []Presence
	err = s.readTx(ctx, func(tx Tx) error {
		if _, err := readWorkspace(ctx, tx, wsID); err != nil {
			return err
		}
		state, n, err := presenceListArgs(presence, limit)
		if err != nil {
			return err
		}
		now := s.nowISO()
		list, err := tx.Presences(ctx, wsID, PresenceFilter{State: state, At: now, Limit: n})
		out = shownPresences(list, now)
		return err
	})
	return out, err
}

// presenceListArgs validates a listing's presence filter, then its limit
// (100 when nil).
func presenceListArgs(presence *string, limit *int64) (PresenceState, int64, error) {
	state := PresenceAny
	if presence != nil {
		switch p := PresenceState(*presence); p {
		case PresenceLive, PresenceStale, PresenceLeft:
			state = p
		default:
			return state, 0, collaberr.New(collaberr.InvalidPresence, "presence must be live, stale or left")
		}
	}
	s := field.SessionListLimit.Spec()
	n := s.Default
	if limit != nil {
		n = *limit
	}
	if !s.Admits(n) {
		return state, 0, collaberr.Newf(collaberr.InvalidSessionListLimit, "%s must be a whole number from %d to %d", s.Name, s.Min, s.Max)
	}
	return state, n, nil
}
