package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
	"github.com/agenttool/collab/core/store/engine"
)

// requestHash is the receipt fingerprint of a mutation: sha256 of the
// canonical {operation, request} object. The request objects are part of
// the compatibility rules (docs/contract.md#idempotency-receipts), so the same
// retry hashes the same in either implementation.
func requestHash(operation string, request map[string]any) (string, error) {
	b, err := canon.Marshal(map[string]any{"operation": operation, "request": request})
	if err != nil {
		return "", fmt.Errorf("hash %s request: %w", operation, err)
	}
	return sha256Hex(string(b)), nil
}

// receipt is a stored idempotency record.
type receipt engine.Receipt

// findReceipt reads the receipt of (workspace, actor, key).
func findReceipt(ctx context.Context, tx engine.Receipts, workspaceID, actor, key string) (receipt, bool, error) {
	r, ok, err := tx.FindReceipt(ctx, engine.ReceiptScope{WorkspaceID: workspaceID, Actor: actor, Key: key})
	return receipt(r), ok, err
}

// replayOrConflict returns the stored response of an exact retry, or
// idempotency_conflict when the key was used for something else.
func (r receipt) replayOrConflict(operation, hash string) ([]byte, error) {
	if r.Operation != operation || r.RequestHash != hash {
		return nil, collaberr.New(collaberr.IdempotencyConflict,
			"This idempotency key was already used for a different change; choose a new key").With("operation", r.Operation)
	}
	return answerBytes(operation, r.Response), nil
}

// insertReceipt records a mutation's receipt; answer is what the caller
// was told, stored in the reference's form (see receiptMember).
func insertReceipt(ctx context.Context, tx engine.Receipts, workspaceID, actor, key, operation, hash string, answer []byte, now string) error {
	response, err := receiptBytes(operation, answer)
	if err != nil {
		return err
	}
	return tx.InsertReceipt(ctx, engine.ReceiptScope{WorkspaceID: workspaceID, Actor: actor, Key: key},
		engine.Receipt{Operation: operation, RequestHash: hash, Response: response}, now)
}

// sessionMutation is one credential-bound, idempotent write.
type sessionMutation struct {
	cred          Credential
	operation     string
	key           string
	request       map[string]any
	allowRecovery bool
	apply         func(ctx context.Context, tx *Tx, sess CoordinationSession) (any, error)
}

func sessionActorKey(sessionID string) string { return "session:" + sessionID }

// mutateAsSession runs a session write in one IMMEDIATE transaction:
// authenticate, answer an exact retry from its receipt, otherwise apply the
// change while holding a write-guard row (so the v0.2 triggers admit it),
// record the receipt and the session's last_seen_at. Any failure rolls the
// whole change back, receipt included.
func (s *Store) mutateAsSession(ctx context.Context, m sessionMutation) (json.RawMessage, error) {
	key, err := normalize.IdempotencyKey(m.key)
	if err != nil {
		return nil, err
	}
	hash, err := requestHash(m.operation, m.request)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = s.writeTx(ctx, func(tx *Tx) error {
		sess, err := authenticate(ctx, tx, m.cred, m.allowRecovery)
		if err != nil {
			return err
		}
		now := s.nowISO()
		actor := sessionActorKey(sess.ID)
		if r, ok, err := findReceipt(ctx, tx, sess.WorkspaceID, actor, key); err != nil || ok {
			if err != nil {
				return err
			}
			if out, err = r.replayOrConflict(m.operation, hash); err != nil {
				return err
			}
			return tx.TouchSession(ctx, sess.ID, now)
		}
		release, err := tx.TakeWriteGuard(ctx, "guard_"+newUUID())
		if err != nil {
			return err
		}
		response, err := m.apply(ctx, tx, sess)
		if err != nil {
			return err
		}
		if out, err = encodeJSON(response); err != nil {
			return err
		}
		if err := insertReceipt(ctx, tx, sess.WorkspaceID, actor, key, m.operation, hash, out, now); err != nil {
			return err
		}
		if err := tx.TouchSession(ctx, sess.ID, s.nowISO()); err != nil {
			return err
		}
		return release(ctx)
	})
	return out, err
}

// sessionReceipt authenticates the session and answers an exact retry
// before any Git inspection, outside a transaction; hit is false when the
// key is unused. The authenticated session is returned for the caller's
// preparation work.
func (s *Store) sessionReceipt(ctx context.Context, cred Credential, operation, key string, request map[string]any) (CoordinationSession, json.RawMessage, bool, error) {
	k, err := normalize.IdempotencyKey(key)
	if err != nil {
		return CoordinationSession{}, nil, false, err
	}
	hash, err := requestHash(operation, request)
	if err != nil {
		return CoordinationSession{}, nil, false, err
	}
	var sess CoordinationSession
	var r receipt
	var found bool
	err = s.engine().Read(ctx, func(tx engine.Tx) error {
		if sess, err = authenticate(ctx, tx, cred, false); err != nil {
			return err
		}
		r, found, err = findReceipt(ctx, tx, sess.WorkspaceID, sessionActorKey(sess.ID), k)
		return err
	})
	if err != nil || !found {
		return sess, nil, false, err
	}
	out, err := r.replayOrConflict(operation, hash)
	return sess, out, err == nil, err
}

// legacyMutation is one label-based (unbound) idempotent write.
type legacyMutation struct {
	workspaceID string
	actor       string
	operation   string
	key         string
	request     map[string]any
	apply       func(ctx context.Context, tx *Tx) (any, error)
}

// mutateAsActor runs a legacy write: receipts are scoped to the actor
// label, and replays of old receipts are completed with the fields newer
// versions added to tasks.
func (s *Store) mutateAsActor(ctx context.Context, m legacyMutation) (json.RawMessage, error) {
	if _, err := readWorkspace(ctx, s.read, m.workspaceID); err != nil {
		return nil, err
	}
	hash, err := requestHash(m.operation, m.request)
	if err != nil {
		return nil, err
	}
	var out []byte
	err = s.writeTx(ctx, func(tx *Tx) error {
		now := s.nowISO()
		if r, ok, err := findReceipt(ctx, tx, m.workspaceID, m.actor, m.key); err != nil || ok {
			if err != nil {
				return err
			}
			stored, err := r.replayOrConflict(m.operation, hash)
			if err != nil {
				return err
			}
			out, err = hydrateLegacyReplay(stored, now)
			return err
		}
		response, err := m.apply(ctx, tx)
		if err != nil {
			return err
		}
		if out, err = encodeJSON(response); err != nil {
			return err
		}
		return insertReceipt(ctx, tx, m.workspaceID, m.actor, m.key, m.operation, hash, out, now)
	})
	return out, err
}

// encodeJSON renders a response the way receipts store it: compact JSON in
// field order, without HTML escaping.
func encodeJSON(v any) ([]byte, error) {
	b, err := marshalNoEscape(v)
	if err != nil {
		return nil, fmt.Errorf("encode response: %w", err)
	}
	return b, nil
}
