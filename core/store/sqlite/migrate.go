package sqlite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/sqltx"
)

// legacyRoot is one pre-v0.3 workspace and the identity its stored root
// resolves to today.
type legacyRoot struct {
	WorkspaceID string
	RootPath    string
	Identity    gitstate.Identity
	Facts       store.WorktreeFacts
}

// PathIdentity is the identity of a root that is not (or no longer) a Git
// worktree: keyed by the path itself.
func PathIdentity(root string) gitstate.Identity {
	sum := sha256Hex(root)
	fingerprint := "path:" + sum
	return gitstate.Identity{
		RootPath:      root,
		RepositoryKey: "local-path:" + sum,
		Fingerprint:   fingerprint,
		WorktreeID:    "wt_" + sha256Hex(root + "\x00" + "path:" + root)[:24],
	}
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// prepareLegacyRoots resolves every legacy workspace root outside any
// transaction and refuses when two distinct journals would collapse into
// one worktree, before a single byte of the file changes.
func (s *DB) prepareLegacyRoots(ctx context.Context, q Querier) ([]legacyRoot, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, root_path FROM workspaces ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("read legacy workspaces: %w", err)
	}
	roots := []legacyRoot{} // non-nil: "prepared, possibly empty"
	for rows.Next() {
		var r legacyRoot
		if err := rows.Scan(&r.WorkspaceID, &r.RootPath); err != nil {
			rows.Close()
			return nil, err
		}
		roots = append(roots, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range roots {
		id, cp, err := s.observe(ctx, roots[i].RootPath, "")
		if err != nil {
			id = PathIdentity(roots[i].RootPath)
			roots[i].Facts = store.WorktreeFacts{Identity: id}
		} else {
			roots[i].Facts = store.FactsOf(id, cp)
		}
		roots[i].Identity = id
	}
	return roots, checkCollisions(roots)
}

// checkCollisions refuses legacy roots that share a canonical root, a
// worktree id or a fingerprint.
func checkCollisions(roots []legacyRoot) error {
	fields := []struct {
		name string
		key  func(gitstate.Identity) string
	}{
		{"worktrees.fingerprint", func(i gitstate.Identity) string { return i.Fingerprint }},
		{"worktrees.id", func(i gitstate.Identity) string { return i.WorktreeID }},
		{"worktrees.root_path", func(i gitstate.Identity) string { return i.RootPath }},
	}
	var collisions []map[string]any
	var all []string
	for _, f := range fields {
		groups := map[string][]string{}
		var order []string
		for _, r := range roots {
			k := f.key(r.Identity)
			if _, seen := groups[k]; !seen {
				order = append(order, k)
			}
			groups[k] = append(groups[k], r.WorkspaceID)
		}
		var found [][]string
		for _, k := range order {
			if ids := groups[k]; len(ids) > 1 {
				slices.Sort(ids)
				found = append(found, ids)
				all = append(all, ids...)
			}
		}
		slices.SortFunc(found, func(a, b []string) int { return strings.Compare(strings.Join(a, "\x00"), strings.Join(b, "\x00")) })
		for _, ids := range found {
			collisions = append(collisions, map[string]any{"field": f.name, "workspace_ids": ids})
		}
	}
	if len(collisions) == 0 {
		return nil
	}
	slices.Sort(all)
	return collaberr.New(collaberr.MigrationIdentityCollision,
		"Two legacy workspaces now resolve to one worktree; migrating would merge separate journals, so the file was left untouched").
		With("workspace_ids", slices.Compact(all)).
		With("collisions", collisions).
		With("boundary", "v0_3_will_not_merge_distinct_legacy_journals_that_resolve_to_one_worktree").
		With("required_action", "keep_the_original_audit_database_and_use_a_compatible_v0_2_client_or_choose_a_fresh_v0_3_database")
}

// journalHeads snapshots every workspace's head, ordered by id.
func journalHeads(ctx context.Context, q Querier) (string, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, epoch_id, event_head_sequence, event_head_hash FROM workspaces ORDER BY id")
	if err != nil {
		return "", fmt.Errorf("read journal heads: %w", err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, epoch, hash string
		var seq int64
		if err := rows.Scan(&id, &epoch, &seq, &hash); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%s\x00%s\x00%d\x00%s\n", id, epoch, seq, hash)
	}
	return b.String(), rows.Err()
}

func execAll(ctx context.Context, q Querier, stmts []string) error {
	for _, stmt := range stmts {
		if _, err := q.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("apply schema: %w", err)
		}
	}
	return nil
}

// migrateLegacy upgrades a v0.1 or public-v0.2 database to schema v3 inside
// the caller's transaction. Existing rows and event bytes are not touched.
func (s *DB) migrateLegacy(ctx context.Context, q Querier, roots []legacyRoot) error {
	if ok, err := ColumnExists(ctx, q, "workspaces", "repository_key"); err != nil || ok {
		if err != nil {
			return err
		}
		return collaberr.New(collaberr.DatabasePartialMigration, "The database has v0.2 columns but no committed schema version")
	}
	heads, err := journalHeads(ctx, q)
	if err != nil {
		return err
	}
	current, err := s.prepareLegacyRootsList(ctx, q)
	if err != nil {
		return err
	}
	if !sameRoots(current, roots) {
		return collaberr.New(collaberr.MigrationSourceChanged,
			"Legacy workspace roots changed while the migration was being prepared; start again")
	}
	if err := createV2Objects(ctx, q); err != nil {
		return err
	}
	now := s.nowISO()
	if err := backfillWorktrees(ctx, q, roots, now); err != nil {
		return err
	}
	if err := execAll(ctx, q, v2Guards); err != nil {
		return err
	}
	if err := checkMigrationIntegrity(ctx, q, heads, true); err != nil {
		return err
	}
	for _, v := range []int{2, 3} {
		if _, err := q.ExecContext(ctx, "INSERT INTO schema_migrations (version, protocol, applied_at) VALUES (?, ?, ?)",
			v, migrationProtocol, now); err != nil {
			return fmt.Errorf("record migration %d: %w", v, err)
		}
	}
	return nil
}

func createV2Objects(ctx context.Context, q Querier) error {
	stmts := slices.Concat(v2Columns, v2TablesBeforeSessions, presenceTable,
		[]string{coordinationSessionsDDL("coordination_sessions")}, v2TablesAfterSessions)
	return execAll(ctx, q, stmts)
}

func (s *DB) prepareLegacyRootsList(ctx context.Context, q Querier) ([]legacyRoot, error) {
	rows, err := q.QueryContext(ctx, "SELECT id, root_path FROM workspaces ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []legacyRoot
	for rows.Next() {
		var r legacyRoot
		if err := rows.Scan(&r.WorkspaceID, &r.RootPath); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func sameRoots(a, b []legacyRoot) bool {
	return slices.EqualFunc(a, b, func(x, y legacyRoot) bool {
		return x.WorkspaceID == y.WorkspaceID && x.RootPath == y.RootPath
	})
}

// backfillWorktrees gives each legacy workspace its repository key and one
// worktree row, in (created_at, id) order.
func backfillWorktrees(ctx context.Context, q Querier, roots []legacyRoot, now string) error {
	byID := map[string]store.WorktreeFacts{}
	for _, r := range roots {
		byID[r.WorkspaceID] = r.Facts
	}
	rows, err := q.QueryContext(ctx, "SELECT id FROM workspaces ORDER BY created_at, id")
	if err != nil {
		return err
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read workspaces: %w", err)
	}
	for _, wsID := range ids {
		id, ok := byID[wsID]
		if !ok {
			return collaberr.New(collaberr.MigrationIdentityMissing, "A legacy workspace has no prepared repository identity").
				With("workspace_id", wsID)
		}
		if _, err := q.ExecContext(ctx, "INSERT OR IGNORE INTO repositories (key, created_at) VALUES (?, ?)", id.RepositoryKey, now); err != nil {
			return fmt.Errorf("insert repository: %w", err)
		}
		if err := sqltx.InsertWorktree(ctx, sqltx.WrapSQL(q), wsID, id, now); err != nil {
			return err
		}
		if _, err := q.ExecContext(ctx, "UPDATE workspaces SET repository_key = ? WHERE id = ?", id.RepositoryKey, wsID); err != nil {
			return err
		}
	}
	return nil
}

// checkMigrationIntegrity confirms the journals did not move and SQLite
// agrees the file is sound.
func checkMigrationIntegrity(ctx context.Context, q Querier, heads string, fkDetails bool) error {
	after, err := journalHeads(ctx, q)
	if err != nil {
		return err
	}
	if after != heads {
		return collaberr.New(collaberr.MigrationJournalChanged, "The migration would have changed an existing journal head")
	}
	var failures int
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM pragma_foreign_key_check").Scan(&failures); err != nil {
		return fmt.Errorf("foreign key check: %w", err)
	}
	if failures != 0 {
		e := collaberr.New(collaberr.MigrationForeignKeyFailure, "The migration would leave foreign keys pointing nowhere")
		if fkDetails {
			e.With("failures", failures)
		}
		return e
	}
	var integrity string
	if err := q.QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&integrity); err != nil {
		return fmt.Errorf("integrity check: %w", err)
	}
	if integrity != "ok" {
		return collaberr.New(collaberr.MigrationIntegrityFailure, "SQLite reported the file damaged during migration")
	}
	return nil
}

// migratePreview upgrades the unreleased schema-2 preview to v3: its
// credential-bound "sessions" table becomes coordination_sessions and an
// empty presence table takes the old name.
func (s *DB) migratePreview(ctx context.Context, q Querier) error {
	if err := validateV2Shape(ctx, q, "sessions", []int64{2}); err != nil {
		return err
	}
	heads, err := journalHeads(ctx, q)
	if err != nil {
		return err
	}
	before, err := dumpRows(ctx, q, "sessions")
	if err != nil {
		return err
	}
	stmts := slices.Concat([]string{
		"ALTER TABLE sessions RENAME TO coordination_sessions",
		"DROP INDEX IF EXISTS sessions_workspace_status_idx",
		v2TablesAfterSessions[0],
	}, presenceTable)
	if err := execAll(ctx, q, stmts); err != nil {
		return err
	}
	after, err := dumpRows(ctx, q, "coordination_sessions")
	if err != nil {
		return err
	}
	if after != before {
		return collaberr.New(collaberr.MigrationSessionRowsChanged, "Session rows changed while the preview table was renamed")
	}
	if _, err := q.ExecContext(ctx, "INSERT INTO schema_migrations (version, protocol, applied_at) VALUES (3, ?, ?)",
		migrationProtocol, s.nowISO()); err != nil {
		return fmt.Errorf("record migration 3: %w", err)
	}
	return checkMigrationIntegrity(ctx, q, heads, false)
}

// dumpRows renders every row of table (ordered by id) for comparison.
func dumpRows(ctx context.Context, q Querier, table string) (string, error) {
	rows, err := q.QueryContext(ctx, "SELECT * FROM "+table+" ORDER BY id")
	if err != nil {
		return "", fmt.Errorf("read %s: %w", table, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return "", err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	var b strings.Builder
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "%#v\n", vals)
	}
	return b.String(), rows.Err()
}
