package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/normalize"
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
type receipt Receipt

// findReceipt reads the receipt of (workspace, actor, key).
func findReceipt(ctx context.Context, tx Receipts, workspaceID, actor, key string) (receipt, bool, error) {
	r, ok, err := tx.FindReceipt(ctx, ReceiptScope{WorkspaceID: workspaceID, Actor: actor, Key: key})
	return receipt(r), ok, err
}

// checkRetry refuses a receipt whose key was used for something else
// (another operation or another request): idempotency_conflict.
func (r receipt) checkRetry(operation, hash string) error {
	if r.Operation != operation || r.RequestHash != hash {
		return collaberr.New(collaberr.IdempotencyConflict,
			"This idempotency key was already used for a different change; choose a new key").With("operation", r.Operation)
	}
	return nil
}

// replay answers an exact retry from its receipt's stored bytes, or
// refuses a key used for something else.
func replay[T any](r receipt, operation, hash string) (*answer.Of[T], error) {
	if err := r.checkRetry(operation, hash); err != nil {
		return nil, err
	}
	return answer.Replay[T](operation, r.Response), nil
}

// answerAndRecord renders a fresh answer and records the receipt of it (in
// the reference's form, see answer.Member) in the same transaction.
func answerAndRecord[T any](ctx context.Context, tx Receipts, scope ReceiptScope, operation, hash string, v *T, now string) (*answer.Of[T], error) {
	a, response, err := answer.Render(operation, v)
	if err != nil {
		return a, err
	}
	err = tx.InsertReceipt(ctx, scope, Receipt{Operation: operation, RequestHash: hash, Response: response}, now)
	return a, err
}

// sessionMutation is one credential-bound, idempotent write.
type sessionMutation[T any] struct {
	cred          Credential
	operation     string
	key           string
	request       map[string]any
	allowRecovery bool
	// unguarded is set by a change that writes none of the tables the
	// v0.2 triggers watch (tasks, artifacts, handoffs; a test holds the
	// schema to that list): it takes no write-guard row, which would cost
	// two statements and two more pages in its commit. Were it to write
	// one anyway, the trigger would abort it, and nothing would be written.
	unguarded bool
	apply     func(ctx context.Context, tx Tx, sess CoordinationSession) (*T, error)
}

func sessionActorKey(sessionID string) string { return "session:" + sessionID }

// mutateAsSession runs a session write in one IMMEDIATE transaction:
// authenticate, answer an exact retry from its receipt, otherwise apply the
// change while holding a write-guard row (so the v0.2 triggers admit it;
// an unguarded change needs none),
// record the receipt and the session's last_seen_at. Any failure rolls the
// whole change back, receipt included.
func mutateAsSession[T any](ctx context.Context, s *Store, m sessionMutation[T]) (*answer.Of[T], error) {
	key, err := normalize.IdempotencyKey(m.key)
	if err != nil {
		return nil, err
	}
	hash, err := requestHash(m.operation, m.request)
	if err != nil {
		return nil, err
	}
	var out *answer.Of[T]
	err = s.writeTx(ctx, func(tx Tx) error {
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
			if out, err = replay[T](r, m.operation, hash); err != nil {
				return err
			}
			return touchSession(ctx, tx, sess, now)
		}
		release := func(context.Context) error { return nil }
		if !m.unguarded {
			if release, err = tx.TakeWriteGuard(ctx, "guard_"+newUUID()); err != nil {
				return err
			}
		}
		v, err := m.apply(ctx, tx, sess)
		if err != nil {
			return err
		}
		scope := ReceiptScope{WorkspaceID: sess.WorkspaceID, Actor: actor, Key: key}
		if out, err = answerAndRecord(ctx, tx, scope, m.operation, hash, v, now); err != nil {
			return err
		}
		if err := touchSession(ctx, tx, sess, s.nowISO()); err != nil {
			return err
		}
		return release(ctx)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// sessionReceipt authenticates the session and answers an exact retry
// before any Git inspection, outside a transaction; hit is false when the
// key is unused. The authenticated session is returned for the caller's
// preparation work.
func sessionReceipt[T any](ctx context.Context, s *Store, cred Credential, operation, key string, request map[string]any) (CoordinationSession, *answer.Of[T], bool, error) {
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
	err = s.engine().Read(ctx, func(tx Tx) error {
		if sess, err = authenticate(ctx, tx, cred, false); err != nil {
			return err
		}
		r, found, err = findReceipt(ctx, tx, sess.WorkspaceID, sessionActorKey(sess.ID), k)
		return err
	})
	if err != nil || !found {
		return sess, nil, false, err
	}
	out, err := replay[T](r, operation, hash)
	return sess, out, err == nil, err
}

// legacyMutation is one label-based (unbound) idempotent write.
type legacyMutation[T any] struct {
	workspaceID string
	actor       string
	operation   string
	key         string
	request     map[string]any
	apply       func(ctx context.Context, tx Tx) (*T, error)
}

// mutateAsActor runs a legacy write: receipts are scoped to the actor
// label, and replays of old receipts are completed with the fields newer
// versions added to tasks.
func mutateAsActor[T any](ctx context.Context, s *Store, m legacyMutation[T]) (*answer.Of[T], error) {
	if err := s.engine().Read(ctx, func(tx Tx) error {
		_, err := readWorkspace(ctx, tx, m.workspaceID)
		return err
	}); err != nil {
		return nil, err
	}
	hash, err := requestHash(m.operation, m.request)
	if err != nil {
		return nil, err
	}
	var out *answer.Of[T]
	err = s.writeTx(ctx, func(tx Tx) error {
		now := s.nowISO()
		if r, ok, err := findReceipt(ctx, tx, m.workspaceID, m.actor, m.key); err != nil || ok {
			if err != nil {
				return err
			}
			if err := r.checkRetry(m.operation, hash); err != nil {
				return err
			}
			out, err = answer.ReplayLegacy[T](m.operation, r.Response, now)
			return err
		}
		v, err := m.apply(ctx, tx)
		if err != nil {
			return err
		}
		scope := ReceiptScope{WorkspaceID: m.workspaceID, Actor: m.actor, Key: m.key}
		out, err = answerAndRecord(ctx, tx, scope, m.operation, hash, v, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
