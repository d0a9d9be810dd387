package store

import (
	"context"
	"fmt"
	"slices"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/scope"
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
	Now      string
	Tasks    []Task
	Sessions []CoordinationSession
	// Hosts are what holds each session, by session id (SessionHost);
	// a session that never recorded one is absent.
	Hosts     map[string]SessionHost
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

// SchemaVersion returns the file's user_version (for PostgreSQL,
// SchemaVersion once Open has accepted the collab schema). The view reads
// only files at SchemaVersion; an older one needs a writing server to
// migrate it.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	return s.be.UserVersion(ctx)
}

// Workspaces lists every workspace in creation order.
func (s *Store) Workspaces(ctx context.Context) ([]Workspace, error) {
	var out []Workspace
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		out, err = tx.Workspaces(ctx, WorkspaceFilter{})
		return err
	})
	return out, err
}

// View reads everything the board, sessions, handoffs, decisions and
// conflict pages show of one workspace, from one read snapshot.
func (s *Store) View(ctx context.Context, workspaceID string) (WorkspaceView, error) {
	v := WorkspaceView{Now: s.nowISO()}
	err := s.readTx(ctx, func(tx Tx) error {
		var err error
		if v.Workspace, err = readWorkspace(ctx, tx, workspaceID); err != nil {
			return err
		}
		if v.Tasks, err = listTasks(ctx, tx, workspaceID, "", v.Now); err != nil {
			return err
		}
		if v.Sessions, err = sessionsBySeen(ctx, tx, workspaceID); err != nil {
			return err
		}
		if v.Hosts, err = hostsByID(ctx, tx, workspaceID); err != nil {
			return err
		}
		if v.Presence, err = allPresence(ctx, tx, workspaceID, v.Now); err != nil {
			return err
		}
		if v.Worktrees, err = tx.Worktrees(ctx, workspaceID); err != nil {
			return err
		}
		if v.Handoffs, err = workspaceOffers(ctx, tx, workspaceID); err != nil {
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

// allPresence lists every self-declared presence record, most recently
// seen first.
func allPresence(ctx context.Context, q Presences, workspaceID, now string) ([]Presence, error) {
	list, err := presencesBySeen(ctx, q, workspaceID)
	return shownPresences(list, now), err
}

// pathConflicts pairs the repository's reserving tasks whose scopes
// overlap while they are held from different worktrees (or from no known
// worktree, as legacy claims are).
func pathConflicts(ctx context.Context, tx PathClaims, repositoryKey, now string) ([]PathConflict, error) {
	held, err := heldScopes(ctx, tx, repositoryKey, now)
	if err != nil {
		return nil, err
	}
	sets := make([]scope.Set, len(held))
	for i := range held {
		sets[i] = scope.NewSet(held[i].PathScopes)
	}
	var out []PathConflict
	for i := range held {
		for j := i + 1; j < len(held); j++ {
			a, b := held[i], held[j]
			if a.WorktreeID != "" && a.WorktreeID == b.WorktreeID {
				continue
			}
			if pairs := sets[i].Conflicts(sets[j]); len(pairs) > 0 {
				out = append(out, PathConflict{TaskA: a.TaskID, TaskB: b.TaskID, WorkspaceA: a.WorkspaceID, WorkspaceB: b.WorkspaceID,
					WorktreeA: a.WorktreeID, WorktreeB: b.WorktreeID, PathPairs: pairs})
			}
		}
	}
	return out, nil
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
	f := ReportFilter{Kind: q.Kind, ToSessionID: q.ToSessionID, Limit: q.Limit, NewestFirst: true}
	var out []Report
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		if out, err = queryReports(ctx, tx, workspaceID, f); err != nil {
			return err
		}
		return addTargets(ctx, tx, &out)
	})
	slices.SortFunc(out, func(a, b Report) int { return int(a.EventSequence - b.EventSequence) })
	return out, err
}

// Overturned maps each report of the workspace that is out of force to
// the relation of the report that took it out: "withdraws", "corrects"
// or "supersedes". A report whose overturning report was itself
// withdrawn (or corrected, or superseded) is in force again and is not
// listed: the same rule the journal applies to completions and
// challenges.
func (s *Store) Overturned(ctx context.Context, workspaceID string) (map[string]string, error) {
	var out map[string]string
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		out, err = obsoletedReports(ctx, tx, workspaceID)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("read overturned reports: %w", err)
	}
	return out, nil
}

// addTargets appends the reports that listed ones point at but that the
// filter left out, so that every thread has its root.
func addTargets(ctx context.Context, q Reports, reports *[]Report) error {
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
	var out []journal.Event
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		r := EventRange{Before: q.Before, Limit: q.Limit, Newest: true}
		if q.Type != "" {
			r.Types = []string{q.Type}
		}
		out, err = tx.Events(ctx, workspaceID, r)
		return err
	})
	return out, err
}

// EventAt returns one event by sequence; found is false when absent.
func (s *Store) EventAt(ctx context.Context, workspaceID string, sequence int64) (journal.Event, bool, error) {
	var e journal.Event
	var found bool
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		e, found, err = eventAt(ctx, tx, workspaceID, sequence)
		return err
	})
	return e, found, err
}

// EventTypes lists the distinct types of the journal's events after
// sequence after, sorted. Types only accumulate, so a caller that keeps
// the answer can ask again for only what came since.
func (s *Store) EventTypes(ctx context.Context, workspaceID string, after int64) ([]string, error) {
	var out []string
	err := s.engine().Read(ctx, func(tx Tx) error {
		var err error
		out, err = tx.EventTypes(ctx, workspaceID, after)
		return err
	})
	return out, err
}
