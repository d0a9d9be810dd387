package transfer

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/journal"
)

// Chain is one workspace journal as a copy verified it.
type Chain struct {
	WorkspaceID  string `json:"workspace_id"`
	Name         string `json:"name"`
	Events       int64  `json:"events"`
	HeadSequence int64  `json:"head_sequence"`
	HeadHash     string `json:"head_hash"`
}

// ChainError is a workspace journal that fails verification: on the source
// (nothing was written) or on the target after the copy (rolled back).
type ChainError struct {
	Side        string // "source" or "target"
	WorkspaceID string
}

func (e *ChainError) Error() string {
	if e.Side == "source" {
		return fmt.Sprintf("the source's journal of workspace %s fails hash-chain verification; nothing was copied "+
			"(run agenttool-collab-mcp verify on it to see where it breaks)", e.WorkspaceID)
	}
	return fmt.Sprintf("after the copy, the target's journal of workspace %s fails hash-chain verification; "+
		"the copy was rolled back", e.WorkspaceID)
}

// verifyChains recomputes every workspace journal r holds from genesis
// against its head, with the one verification of a stored journal
// (journal.VerifyChain), and returns them in workspace id order. A broken
// chain is a *ChainError naming side.
func verifyChains(ctx context.Context, r reader, side string) ([]Chain, error) {
	var chains []Chain
	err := r.each(ctx, "SELECT id, name, event_head_sequence, event_head_hash FROM workspaces ORDER BY id", nil,
		func(vals []any) error {
			c := Chain{}
			var ok bool
			if c.WorkspaceID, ok = vals[0].(string); !ok {
				return &ChainError{Side: side, WorkspaceID: fmt.Sprint(vals[0])}
			}
			c.Name, _ = vals[1].(string)
			c.HeadSequence, _ = vals[2].(int64)
			c.HeadHash, _ = vals[3].(string)
			chains = append(chains, c)
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("read the %s's workspaces: %w", side, err)
	}
	for i := range chains {
		c := &chains[i]
		valid, err := journal.VerifyChain(journal.Stored{HeadSequence: c.HeadSequence, HeadHash: c.HeadHash,
			Feed: func(emit func(*journal.Event) error) error {
				return eachEvent(ctx, r, c.WorkspaceID, func(e *journal.Event) error {
					c.Events++
					return emit(e)
				})
			}}, 0, nil)
		if err != nil {
			return nil, fmt.Errorf("read the %s's journal of workspace %s: %w", side, c.WorkspaceID, err)
		}
		if !valid {
			return nil, &ChainError{Side: side, WorkspaceID: c.WorkspaceID}
		}
	}
	return chains, nil
}

// eachEvent streams one workspace's events in sequence order.
func eachEvent(ctx context.Context, r reader, workspaceID string, fn func(e *journal.Event) error) error {
	return r.each(ctx, `SELECT workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at,
payload_json, prev_hash, hash, session_id FROM events WHERE workspace_id = ? ORDER BY sequence`, []any{workspaceID},
		func(vals []any) error {
			var e journal.Event
			if !eventFrom(vals, &e) {
				return journal.ErrUnreadableEvent
			}
			return fn(&e)
		})
}

// eventFrom reads one events row; false when a column that must be text
// or an integer is not.
func eventFrom(v []any, e *journal.Event) bool {
	texts := []*string{&e.WorkspaceID, &e.EpochID, nil, &e.ID, &e.Protocol, &e.Type, &e.EntityID, &e.Actor,
		&e.OccurredAt, nil, &e.PrevHash, &e.Hash}
	for i, p := range texts {
		if p == nil {
			continue
		}
		s, ok := v[i].(string)
		if !ok {
			return false
		}
		*p = s
	}
	seq, ok := v[2].(int64)
	if !ok {
		return false
	}
	e.Sequence = seq
	switch p := v[9].(type) {
	case string:
		e.PayloadJSON = []byte(p)
	default:
		return false
	}
	switch s := v[12].(type) {
	case nil:
		e.SessionID = nil
	case string:
		e.SessionID = &s
	default:
		return false
	}
	return true
}
