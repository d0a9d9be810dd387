package store

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/scope"
	"github.com/agenttool/collab/core/store/engine"
	"github.com/agenttool/collab/core/store/sqlite"
)

// The reads below serve people looking at a journal (the web view): they
// take no session, advance no cursor and write nothing, so they are safe on
// a store opened read-only. They assume schema v3; callers check
// SchemaVersion first.

// WorkspaceView is what a reader sees of one workspace, read from one
// snapshot so that every list agrees with the others.
type WorkspaceView struct {
	Workspace Workspace
	// Now is the snapshot's clock, against which effective statuses,
	// presence and lease expiry were computed.
	Now       string
	Tasks     []Task
	Sessions  []CoordinationSession
	Presence  []Presence
	Worktrees []Worktree
	Handoffs  []Handoff
	Decisions []Decision
	Conflicts []PathConflict
}

// PathConflict is two tasks of one repository, held from different
// worktrees, whose reserved path scopes overlap.
type PathConflict struct {
	TaskA, TaskB         string
	WorkspaceA           string
	WorkspaceB           string
	WorktreeA, WorktreeB string
	PathPairs            [][2]string
}

// SchemaVersion returns the file's user_version. The view reads only
// files at SchemaVersion; an older one needs a writing server to migrate it.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	return sqlite.PragmaInt(ctx, s.read, "user_version")
}

// Workspaces lists every workspace in creation order.
func (s *Store) Workspaces(ctx context.Context) ([]Workspace, error) {
	rows, err := s.read.QueryContext(ctx, "SELECT "+sqlite.WorkspaceColumns+" FROM workspaces ORDER BY created_at, id")
	if err != nil {
		return nil, fmt.Errorf("list workspaces: %w", err)
	}
	defer rows.Close()
	var out []Workspace
	for rows.Next() {
		var w Workspace
		if err := rows.Scan(&w.ID, &w.EpochID, &w.RootPath, &w.RepositoryKey, &w.Name, &w.CreatedAt,
			&w.EventHeadSequence, &w.EventHeadHash); err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// View reads everything the board, sessions, handoffs, decisions and
// conflict pages show of one workspace, from one read snapshot.
func (s *Store) View(ctx context.Context, workspaceID string) (WorkspaceView, error) {
	v := WorkspaceView{Now: s.nowISO()}
	err := s.readTx(ctx, func(tx *Tx) error {
		var err error
		if v.Workspace, err = readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		if v.Tasks, err = listTasks(ctx, tx, workspaceID, "", v.Now); err != nil {
			return err
		}
		if v.Sessions, err = allSessions(ctx, tx, workspaceID); err != nil {
			return err
		}
		if v.Presence, err = allPresence(ctx, tx, workspaceID, v.Now); err != nil {
			return err
		}
		if v.Worktrees, err = workspaceWorktrees(ctx, tx, workspaceID); err != nil {
			return err
		}
		if v.Handoffs, err = sqlite.QueryHandoffs(ctx, tx, "workspace_id = ? ORDER BY offered_at DESC, id", workspaceID); err != nil {
			return err
		}
		if v.Decisions, err = recentDecisions(ctx, tx, workspaceID, 200); err != nil {
			return err
		}
		v.Conflicts, err = pathConflicts(ctx, tx, v.Workspace.RepositoryKey, v.Now)
		return err
	})
	return v, err
}

// allSessions lists every credential-bound session, active ones first.
func allSessions(ctx context.Context, q querier, workspaceID string) ([]CoordinationSession, error) {
	return sqlite.QuerySessions(ctx, q, "WHERE workspace_id = ? ORDER BY status, last_seen_at DESC, id", workspaceID)
}

// allPresence lists every self-declared presence record, newest first.
func allPresence(ctx context.Context, q engine.Presences, workspaceID, now string) ([]Presence, error) {
	list, err := q.PresenceBySeen(ctx, workspaceID)
	return shownPresences(list, now), err
}

func workspaceWorktrees(ctx context.Context, q querier, workspaceID string) ([]Worktree, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+sqlite.WorktreeColumns+" FROM worktrees WHERE workspace_id = ? ORDER BY registered_at, id", workspaceID)
	if err != nil {
		return nil, fmt.Errorf("list worktrees: %w", err)
	}
	defer rows.Close()
	out := []Worktree{}
	for rows.Next() {
		w, err := sqlite.ScanWorktree(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, w)
	}
	return out, rows.Err()
}

// pathConflicts pairs the repository's reserving tasks whose scopes
// overlap while they are held from different worktrees (or from no known
// worktree, as legacy claims are).
func pathConflicts(ctx context.Context, q querier, repositoryKey, now string) ([]PathConflict, error) {
	rows, err := q.QueryContext(ctx, `SELECT t.id, t.workspace_id, coalesce(t.claim_worktree_id, ''), t.path_scopes_json
FROM tasks t JOIN workspaces w ON w.id = t.workspace_id
WHERE w.repository_key = ? AND t.work_mode != 'read_only' AND t.path_scopes_json != '[]' AND (
  (t.status = 'claimed' AND (t.lease_expires_at > ? OR t.assignee_session_id IS NOT NULL))
  OR (t.status = 'completed' AND t.completion_policy = 'accepted' AND t.review_status = 'pending'))
ORDER BY t.created_at, t.id`, repositoryKey, now)
	if err != nil {
		return nil, fmt.Errorf("read reservations: %w", err)
	}
	type held struct {
		id, ws, worktree string
		set              scope.Set
	}
	var all []held
	for rows.Next() {
		var h held
		var scopes string
		if err := rows.Scan(&h.id, &h.ws, &h.worktree, &scopes); err != nil {
			rows.Close()
			return nil, err
		}
		var list []string
		if err := json.Unmarshal([]byte(scopes), &list); err != nil {
			rows.Close()
			return nil, fmt.Errorf("task %s path scopes: %w", h.id, err)
		}
		h.set = scope.NewSet(list)
		all = append(all, h)
	}
	rows.Close()
	var out []PathConflict
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			a, b := all[i], all[j]
			if a.worktree != "" && a.worktree == b.worktree {
				continue
			}
			if pairs := a.set.Conflicts(b.set); len(pairs) > 0 {
				out = append(out, PathConflict{TaskA: a.id, TaskB: b.id, WorkspaceA: a.ws, WorkspaceB: b.ws,
					WorktreeA: a.worktree, WorktreeB: b.worktree, PathPairs: pairs})
			}
		}
	}
	return out, rows.Err()
}

// ReportQuery narrows the reports a reader lists. Zero values mean any.
type ReportQuery struct {
	Kind        string
	ToSessionID string
	// Limit caps the newest reports returned (500 when 0).
	Limit int
}

// Reports returns the workspace's reports matching q, oldest first, plus
// every report they reply to, so that threads can be drawn whole.
func (s *Store) Reports(ctx context.Context, workspaceID string, q ReportQuery) ([]Report, error) {
	if q.Limit <= 0 {
		q.Limit = 500
	}
	query := "SELECT " + sqlite.ReportColumns + " FROM reports WHERE workspace_id = ?"
	args := []any{workspaceID}
	if q.Kind != "" {
		query += " AND kind = ?"
		args = append(args, q.Kind)
	}
	if q.ToSessionID != "" {
		query += " AND to_session_id = ?"
		args = append(args, q.ToSessionID)
	}
	query += " ORDER BY event_sequence DESC LIMIT ?"
	args = append(args, q.Limit)
	var out []Report
	err := s.readTx(ctx, func(tx *Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return fmt.Errorf("list reports: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			r, err := sqlite.ScanReport(rows)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		return addTargets(ctx, tx, &out)
	})
	slices.SortFunc(out, func(a, b Report) int { return int(a.EventSequence - b.EventSequence) })
	return out, err
}

// addTargets appends the reports that listed ones point at but that the
// filter left out, so that every thread has its root.
func addTargets(ctx context.Context, q engine.Reports, reports *[]Report) error {
	have := map[string]bool{}
	for _, r := range *reports {
		have[r.ID] = true
	}
	for i := 0; i < len(*reports); i++ {
		t := (*reports)[i].TargetReportID
		if t == nil || have[*t] {
			continue
		}
		r, ok, err := findReport(ctx, q, *t)
		if err != nil {
			return err
		}
		have[*t] = true
		if ok {
			*reports = append(*reports, r)
		}
	}
	return nil
}

// EventQuery selects one page of a journal, newest first.
type EventQuery struct {
	// Before is an exclusive upper bound on sequence; 0 means the head.
	Before int64
	// Type keeps only events of this type; empty keeps all.
	Type string
	// Limit is the page size (50 when 0, at most 500).
	Limit int
}

// EventsBefore returns one page of events, newest first.
func (s *Store) EventsBefore(ctx context.Context, workspaceID string, q EventQuery) ([]journal.Event, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	q.Limit = min(q.Limit, 500)
	query := "SELECT " + sqlite.EventColumns + " FROM events WHERE workspace_id = ?"
	args := []any{workspaceID}
	if q.Before > 0 {
		query += " AND sequence < ?"
		args = append(args, q.Before)
	}
	if q.Type != "" {
		query += " AND type = ?"
		args = append(args, q.Type)
	}
	return queryEvents(ctx, s.read, "read events", query+" ORDER BY sequence DESC LIMIT ?", append(args, q.Limit)...)
}

// EventAt returns one event by sequence; found is false when absent.
func (s *Store) EventAt(ctx context.Context, workspaceID string, sequence int64) (journal.Event, bool, error) {
	evs, err := s.EventsBefore(ctx, workspaceID, EventQuery{Before: sequence + 1, Limit: 1})
	if err != nil || len(evs) == 0 || evs[0].Sequence != sequence {
		return journal.Event{}, false, err
	}
	return evs[0], true, nil
}

// EventTypes lists the distinct types of the journal's events after
// sequence after, sorted. Types only accumulate, so a caller that keeps
// the answer can ask again for only what came since.
func (s *Store) EventTypes(ctx context.Context, workspaceID string, after int64) ([]string, error) {
	rows, err := s.read.QueryContext(ctx, "SELECT DISTINCT type FROM events WHERE workspace_id = ? AND sequence > ? ORDER BY type",
		workspaceID, after)
	if err != nil {
		return nil, fmt.Errorf("read event types: %w", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}
