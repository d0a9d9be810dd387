package store_test

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store/sqltx"
)

// The statements one collab_report_append runs, in order, with nothing of
// the rules around them: authenticate the session, look for the receipt,
// read the journal head, insert the event, move the head, insert the
// report, write the receipt, touch the session. They are the store's own
// (sqltx) statements as tracing AppendReport lists them; the floor
// benchmark below runs exactly these.
var reportAppendStatements = struct {
	session, receipt, head, event, moveHead, report, writeReceipt, touch string
}{
	session: "SELECT id, workspace_id, worktree_id, actor, role, parent_session_id, status, generation, token_hash," +
		" joined_at, last_seen_at, ended_at, cursor_epoch_id, cursor_sequence, cursor_hash, cursor_version," +
		" reset_generation, cursor_recovery_required FROM coordination_sessions WHERE id = ?",
	receipt: "SELECT operation, request_hash, response_json FROM mutations WHERE workspace_id = ? AND actor = ? AND idempotency_key = ?",
	head:    "SELECT epoch_id, event_head_sequence, event_head_hash FROM workspaces WHERE id = ?",
	event: "INSERT INTO events (workspace_id, epoch_id, sequence, id, protocol, type, entity_id, actor, occurred_at," +
		" payload_json, prev_hash, hash, session_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	moveHead: "UPDATE workspaces SET event_head_sequence = ?, event_head_hash = ? WHERE id = ?",
	report:   "INSERT INTO reports (" + sqltx.ReportColumns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	writeReceipt: "INSERT INTO mutations (workspace_id, actor, idempotency_key, operation, request_hash, response_json," +
		" created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
	touch: "UPDATE coordination_sessions SET last_seen_at = ? WHERE id = ?",
}

// appendRows are the rows of one real report append, copied so that each
// iteration of the floor benchmark writes rows of the same sizes.
type appendRows struct {
	event, report, receipt []any
}

// readAppendRows reads back the rows of the store's last report append.
func readAppendRows(ctx context.Context, tx *Tx) (appendRows, error) {
	var rows appendRows
	var err error
	if rows.event, err = scanAll(tx.QueryRowContext(ctx, "SELECT workspace_id, epoch_id, sequence, id, protocol, type,"+
		" entity_id, actor, occurred_at, payload_json, prev_hash, hash, session_id FROM events ORDER BY sequence DESC LIMIT 1"), 13); err != nil {
		return rows, fmt.Errorf("read the event: %w", err)
	}
	if rows.report, err = scanAll(tx.QueryRowContext(ctx, "SELECT "+sqltx.ReportColumns+
		" FROM reports ORDER BY event_sequence DESC LIMIT 1"), 18); err != nil {
		return rows, fmt.Errorf("read the report: %w", err)
	}
	if rows.receipt, err = scanAll(tx.QueryRowContext(ctx, "SELECT workspace_id, actor, idempotency_key, operation,"+
		" request_hash, response_json, created_at FROM mutations WHERE idempotency_key = 'seed'"), 7); err != nil {
		return rows, fmt.Errorf("read the receipt: %w", err)
	}
	return rows, nil
}

// scanAll scans the n columns of row as they are stored.
func scanAll(row *sql.Row, n int) ([]any, error) {
	vals := make([]any, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, row.Scan(ptrs...)
}

// BenchmarkReportAppendStatementsOnly is the floor under
// BenchmarkAppendReportFresh: the same eight statements in one write
// transaction of the same engine (BEGIN IMMEDIATE, statement cache,
// COMMIT), on rows of the same sizes, with no authentication, hashing,
// canonical JSON, validation or answer. What BenchmarkAppendReportFresh
// costs above it is the rules; what this costs is SQLite's and the
// engine's transaction (its file checks before and after).
func BenchmarkReportAppendStatementsOnly(b *testing.B) {
	st, cred := benchBound(b)
	ctx := context.Background()
	if _, err := st.AppendReport(ctx, cred, benchReport("seed")); err != nil {
		b.Fatal(err)
	}
	var rows appendRows
	err := rawWrite(ctx, st, func(tx *Tx) (err error) {
		rows, err = readAppendRows(ctx, tx)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	ws, sess, actor := rows.event[0], cred.SessionID, rows.receipt[1]
	s := reportAppendStatements
	for i := 0; b.Loop(); i++ {
		key := fmt.Sprintf("floor-%d", i)
		err := rawWrite(ctx, st, func(tx *Tx) error {
			if _, err := scanAll(tx.QueryRowContext(ctx, s.session, sess), 18); err != nil {
				return fmt.Errorf("session: %w", err)
			}
			if _, err := scanAll(tx.QueryRowContext(ctx, s.receipt, ws, actor, key), 3); err == nil {
				return fmt.Errorf("receipt: key %s already has one", key)
			} else if err != sql.ErrNoRows {
				return fmt.Errorf("receipt: %w", err)
			}
			var epoch, head string
			var seq int64
			if err := tx.QueryRowContext(ctx, s.head, ws).Scan(&epoch, &seq, &head); err != nil {
				return fmt.Errorf("head: %w", err)
			}
			seq++
			ev := append([]any{}, rows.event...)
			ev[1], ev[2], ev[3], ev[10] = epoch, seq, fmt.Sprintf("evt_floor_%d", i), head
			rp := append([]any{}, rows.report...)
			rp[0], rp[17] = fmt.Sprintf("rpt_floor_%d", i), seq
			rc := append([]any{}, rows.receipt...)
			rc[2] = key
			for _, w := range []struct {
				query string
				args  []any
			}{
				{s.event, ev},
				{s.moveHead, []any{seq, ev[11], ws}},
				{s.report, rp},
				{s.writeReceipt, rc},
				{s.touch, []any{rows.event[8], sess}},
			} {
				if _, err := tx.ExecContext(ctx, w.query, w.args...); err != nil {
					return fmt.Errorf("%.30s: %w", w.query, err)
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}
