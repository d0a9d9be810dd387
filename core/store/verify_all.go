package store

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store/sqlite"

	"github.com/agenttool/collab/core/store/engine"
)

// WorkspaceVerification is the outcome of verifying one workspace journal.
type WorkspaceVerification struct {
	WorkspaceID  string `json:"workspace_id"`
	Name         string `json:"name"`
	HeadSequence int64  `json:"head_sequence"`
	HeadHash     string `json:"head_hash"`
	EventCount   int64  `json:"event_count"`
	ChainValid   bool   `json:"chain_valid"`
	// FirstBadSequence and Problem say, for an invalid chain, the first
	// sequence at which it fails and what is wrong there.
	FirstBadSequence int64  `json:"first_bad_sequence,omitempty"`
	Problem          string `json:"problem,omitempty"`
}

// VerifyAll recomputes every workspace journal from genesis, in workspace
// id order. It works on any recognised layout, including unmigrated v0.1
// files opened read-only, and never writes. A file without any table (a
// first server killed before its first migration committed leaves one)
// holds no journal: the result is empty, not an error.
func (s *Store) VerifyAll(ctx context.Context) ([]WorkspaceVerification, error) {
	conn, err := s.read.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("open read connection: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return nil, fmt.Errorf("begin read: %w", err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // read-only snapshot
	if tables, err := sqlite.HasUserTables(ctx, conn); err != nil || !tables {
		return nil, err
	}
	hasSession, err := sqlite.ColumnExists(ctx, conn, "events", "session_id")
	if err != nil {
		return nil, err
	}
	rows, err := conn.QueryContext(ctx, `SELECT w.id, w.name, w.epoch_id, w.event_head_sequence, w.event_head_hash,
(SELECT count(*) FROM events e WHERE e.workspace_id = w.id) FROM workspaces w ORDER BY w.id`)
	if err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	var out []WorkspaceVerification
	var heads []engine.Head
	for rows.Next() {
		var v WorkspaceVerification
		var h engine.Head
		if err := rows.Scan(&v.WorkspaceID, &v.Name, &h.EpochID, &v.HeadSequence, &v.HeadHash, &v.EventCount); err != nil {
			rows.Close()
			return nil, err
		}
		h.WorkspaceID, h.Sequence, h.Hash = v.WorkspaceID, v.HeadSequence, v.HeadHash
		out, heads = append(out, v), append(heads, h)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read workspaces: %w", err)
	}
	for i, h := range heads {
		if hasSession {
			out[i].ChainValid, err = sqlite.VerifyOnConn(ctx, conn, h)
		} else {
			out[i].ChainValid, err = verifyLegacyLayout(ctx, conn, h)
		}
		if err != nil {
			return nil, err
		}
		if !out[i].ChainValid {
			fault, err := diagnoseJournal(ctx, conn, h, hasSession)
			if err != nil {
				return nil, err
			}
			out[i].FirstBadSequence, out[i].Problem = fault.sequence, fault.problem
		}
	}
	return out, nil
}

// verifyLegacyLayout verifies a journal of a file whose events table
// predates the session_id column.
func verifyLegacyLayout(ctx context.Context, q querier, h engine.Head) (bool, error) {
	return sqlite.VerifyWorkspaceQuery(ctx, q, h,
		"SELECT workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at, payload_json, prev_hash, hash, NULL"+
			" FROM events WHERE workspace_id = ? ORDER BY sequence")
}
