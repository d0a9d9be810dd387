package store

import (
	"context"
	"sort"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// Recovery explains why a resumed session must reset its cursor before it
// may write again.
type Recovery struct {
	Required              bool            `json:"required"`
	Cause                 string          `json:"cause"`
	PersistedCursor       journal.Anchor  `json:"persisted_cursor"`
	HostCursor            *journal.Anchor `json:"host_cursor"`
	ExpectedCursorVersion int64           `json:"expected_cursor_version"`
}

// details renders the recovery as refusal details, in order.
func (r *Recovery) details(e *collaberr.Error) *collaberr.Error {
	return e.With("required", r.Required).With("cause", r.Cause).With("persisted_cursor", r.PersistedCursor).
		With("host_cursor", r.HostCursor).With("expected_cursor_version", r.ExpectedCursorVersion)
}

// Resumed is the outcome of a startup resume.
type Resumed struct {
	Credential credfile.Credential
	Session    CoordinationSession
	Recovery   *Recovery
}

// ResumeSession continues a session from its credential file at host
// startup: it checks the token, moves to a new generation (fencing every
// older process) and decides whether the host's and the journal's cursors
// disagree. A disagreement is refused unless allowRecovery, in which case
// the session resumes fenced until an audited cursor reset.
func (s *Store) ResumeSession(ctx context.Context, cred credfile.Credential, allowRecovery bool) (Resumed, error) {
	var out Resumed
	if _, err := normalize.ID(cred.SessionID, "session_id"); err != nil {
		return out, err
	}
	err := s.writeTx(ctx, func(tx Tx) error {
		sess, found, err := findSession(ctx, tx, cred.SessionID)
		if err != nil {
			return err
		}
		if !found || sess.Status != SessionActive || !credfile.TokenMatches(sess.TokenHash, cred.Token) {
			return authFailed()
		}
		recovery, err := resumeRecovery(ctx, tx, sess, cred.LastCursor)
		if err != nil {
			return err
		}
		if recovery != nil && !allowRecovery {
			return recovery.details(collaberr.New(collaberr.CursorResetRequired,
				"The host's and the journal's session cursors disagree; restart with cursor recovery allowed and reset explicitly"))
		}
		out, err = s.applyResume(ctx, tx, sess, cred, recovery)
		return err
	})
	return out, err
}

// resumeRecovery compares the persisted cursor and the host's last cursor.
func resumeRecovery(ctx context.Context, q Tx, sess CoordinationSession, host *credfile.Cursor) (*Recovery, error) {
	var hostAnchor *journal.Anchor
	if host != nil {
		hostAnchor = &journal.Anchor{EpochID: host.EpochID, Sequence: host.Sequence, Hash: host.Hash}
	}
	var r *Recovery
	if sess.CursorRecoveryRequired {
		r = &Recovery{Cause: "host_cursor_mismatch", HostCursor: hostAnchor}
	}
	if _, err := validateAnchor(ctx, q, sess.WorkspaceID, sess.Cursor); err != nil {
		if _, refused := collaberr.As(err); !refused {
			return nil, err
		}
		if r == nil {
			r = &Recovery{HostCursor: hostAnchor}
		}
		r.Cause = "persisted_cursor_invalid"
	} else if r == nil && hostAnchor != nil {
		if _, err := validateAnchor(ctx, q, sess.WorkspaceID, *hostAnchor); err != nil {
			if _, refused := collaberr.As(err); !refused {
				return nil, err
			}
			r = &Recovery{Cause: "host_cursor_invalid", HostCursor: hostAnchor}
		} else if *hostAnchor != sess.Cursor {
			r = &Recovery{Cause: "host_cursor_mismatch", HostCursor: hostAnchor}
		}
	}
	if r != nil {
		r.Required, r.PersistedCursor, r.ExpectedCursorVersion = true, sess.Cursor, sess.CursorVersion
	}
	return r, nil
}

func (s *Store) applyResume(ctx context.Context, tx Tx, sess CoordinationSession, cred credfile.Credential, recovery *Recovery) (Resumed, error) {
	now := s.nowISO()
	cause := any(nil)
	if recovery != nil {
		cause = recovery.Cause
	}
	ok, err := advanceGeneration(ctx, tx, sess, recovery != nil, now)
	if err != nil {
		return Resumed{}, err
	}
	if !ok {
		return Resumed{}, authFailed()
	}
	if _, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{
		Type: journal.KindSessionResumed, EntityID: sess.ID, Actor: sess.Actor, SessionID: &sess.ID,
		Payload: map[string]any{
			"worktree_id": sess.WorktreeID, "generation": sess.Generation + 1,
			"cursor_recovery_required": recovery != nil, "cursor_recovery_cause": cause,
		},
	}); err != nil {
		return Resumed{}, err
	}
	updated, _, err := findSession(ctx, tx, sess.ID)
	if err != nil {
		return Resumed{}, err
	}
	out := Resumed{Session: updated, Recovery: recovery,
		Credential: credfile.Credential{SessionID: sess.ID, Token: cred.Token, Generation: updated.Generation}}
	if recovery != nil {
		out.Credential.LastCursor = cred.LastCursor
	} else {
		out.Credential.LastCursor = cursorOf(updated.Cursor)
	}
	return out, nil
}

func cursorOf(a journal.Anchor) *credfile.Cursor {
	return &credfile.Cursor{EpochID: a.EpochID, Sequence: a.Sequence, Hash: a.Hash}
}

// EndSession ends the session: live leases must be resolved first; offers
// addressed to it expire; its generation moves on and its token hash is
// replaced, so the credential can never act or resume again.
func (s *Store) EndSession(ctx context.Context, cred Credential, reason *string) (CoordinationSession, error) {
	var out CoordinationSession
	why, err := normalize.Optional(reason, field.EndReason)
	if err != nil {
		return out, err
	}
	err = s.writeTx(ctx, func(tx Tx) error {
		sess, err := authenticate(ctx, tx, cred, true)
		if err != nil {
			return err
		}
		now := s.nowISO()
		if err := refuseLiveLeases(ctx, tx, sess, now); err != nil {
			return err
		}
		if err := s.expireHandoffsTo(ctx, tx, sess, now); err != nil {
			return err
		}
		fresh, err := credfile.NewToken()
		if err != nil {
			return err
		}
		if err := endSession(ctx, tx, sess, credfile.TokenHash(fresh), now); err != nil {
			return err
		}
		if _, err := s.appendEvent(ctx, tx, sess.WorkspaceID, newEvent{
			Type: journal.KindSessionEnded, EntityID: sess.ID, Actor: sess.Actor, SessionID: &sess.ID,
			Payload: map[string]any{"reason": nullable(why)},
		}); err != nil {
			return err
		}
		out, _, err = findSession(ctx, tx, sess.ID)
		return err
	})
	return out, err
}

func refuseLiveLeases(ctx context.Context, tx Tasks, sess CoordinationSession, now string) error {
	ids, err := liveLeases(ctx, tx, sess, now)
	if err != nil {
		return err
	}
	if len(ids) > 0 {
		return collaberr.New(collaberr.SessionHasActiveLeases,
			"This session still holds live task leases; release, complete or hand them off before ending it").
			With("task_ids", ids).With("required_action", "resolve_active_task_leases")
	}
	return nil
}

// liveLeases lists, in id order, the tasks of the session's workspace
// that it holds a lease on that has not expired at now.
func liveLeases(ctx context.Context, tx Tasks, sess CoordinationSession, now string) ([]string, error) {
	claimed, err := tx.Tasks(ctx, sess.WorkspaceID, TaskFilter{Status: TaskClaimed})
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, t := range claimed {
		if t.AssigneeSessionID != nil && *t.AssigneeSessionID == sess.ID && leaseLive(&t, now) {
			ids = append(ids, t.ID)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

// expireHandoffsTo expires every pending offer addressed to an ending session.
func (s *Store) expireHandoffsTo(ctx context.Context, tx Tx, sess CoordinationSession, now string) error {
	offers, err := offersToSession(ctx, tx, sess.WorkspaceID, sess.ID)
	if err != nil {
		return err
	}
	for _, h := range offers {
		if err := s.expireHandoff(ctx, tx, h, "target_session_ended", sess.Actor, &sess.ID, now); err != nil {
			return err
		}
	}
	return nil
}
