package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
)

// PresenceUpdate is a heartbeat or leave request.
type PresenceUpdate struct {
	SessionID       string
	IdempotencyKey  string
	ExpectedVersion int64
	TTLSeconds      *int64 // heartbeat only
}

// HeartbeatPresence refreshes a presence hint (reviving a stale one). It is
// retry-safe through its idempotency key and journals nothing.
func (s *Store) HeartbeatPresence(ctx context.Context, in PresenceUpdate) (*answer.Of[PresenceAnswer], error) {
	id, key, version, err := normalizePresenceUpdate(in)
	if err != nil {
		return nil, err
	}
	ttl, err := normalize.PresenceTTL(in.TTLSeconds)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"session_id": id, "idempotency_key": key, "expected_version": version, "ttl_seconds": ttl}
	return s.updatePresence(ctx, id, key, "session.heartbeat", request, version,
		func(ctx context.Context, tx Presences, p Presence, now string) error {
			if p.LeftAt != nil {
				return collaberr.New(collaberr.SessionLeft, "A presence hint that left cannot heartbeat; join with a new client_instance_id").
					With("session_id", p.ID)
			}
			return tx.UpdatePresence(ctx, p, heartbeatRow(p, now, addSeconds(now, ttl)))
		})
}

// LeavePresence marks a presence hint left; leaving twice is harmless.
func (s *Store) LeavePresence(ctx context.Context, in PresenceUpdate) (*answer.Of[PresenceAnswer], error) {
	id, key, version, err := normalizePresenceUpdate(in)
	if err != nil {
		return nil, err
	}
	request := map[string]any{"session_id": id, "idempotency_key": key, "expected_version": version}
	return s.updatePresence(ctx, id, key, "session.leave", request, version,
		func(ctx context.Context, tx Presences, p Presence, now string) error {
			if p.LeftAt != nil {
				return nil
			}
			return tx.UpdatePresence(ctx, p, leftRow(p, now))
		})
}

func normalizePresenceUpdate(in PresenceUpdate) (string, string, int64, error) {
	id, err := normalize.ID(in.SessionID, "session_id")
	if err != nil {
		return "", "", 0, err
	}
	key, err := normalize.IdempotencyKey(in.IdempotencyKey)
	if err != nil {
		return "", "", 0, err
	}
	version, err := normalize.ExpectedVersion(in.ExpectedVersion)
	return id, key, version, err
}

func (s *Store) updatePresence(ctx context.Context, id, key, operation string, request map[string]any, version int64,
	apply func(ctx context.Context, tx Presences, p Presence, now string) error) (*answer.Of[PresenceAnswer], error) {
	hash, err := requestHash(operation, request)
	if err != nil {
		return nil, err
	}
	var out *answer.Of[PresenceAnswer]
	err = s.writeTx(ctx, func(tx Tx) error {
		now := s.nowISO()
		p, found, err := presenceByID(ctx, tx, id)
		if err != nil {
			return err
		}
		if !found {
			return collaberr.Newf(collaberr.SessionNotFound, "Presence session '%s' was not found", id)
		}
		p = shownPresence(p, now)
		if _, err := readWorkspace(ctx, tx, p.WorkspaceID); err != nil {
			return err
		}
		if r, ok, err := findReceipt(ctx, tx, p.WorkspaceID, p.ActorKey, key); err != nil || ok {
			if err == nil {
				out, err = replay[PresenceAnswer](r, operation, hash)
			}
			return err
		}
		if p.Version != version {
			return collaberr.New(collaberr.SessionVersionConflict, "The presence hint changed since you read it").
				With("session_id", p.ID).With("expected_version", version).With("actual_version", p.Version)
		}
		if err := apply(ctx, tx, p, now); err != nil {
			return err
		}
		updated, found, err := presenceByID(ctx, tx, id)
		if err == nil && !found {
			err = fmt.Errorf("presence %s vanished during its update", id)
		}
		if err != nil {
			return err
		}
		scope := ReceiptScope{WorkspaceID: p.WorkspaceID, Actor: p.ActorKey, Key: key}
		out, err = answerAndRecord(ctx, tx, scope, operation, hash, &PresenceAnswer{Session: shownPresence(updated, now)}, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
