package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// write runs fn in one write transaction and fails the test on error.
func write(t *testing.T, e store.Engine, fn func(ctx context.Context, tx store.Tx) error) {
	t.Helper()
	ctx := context.Background()
	if err := e.Write(ctx, func(tx store.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
}

// read runs fn in one read snapshot and fails the test on error.
func read(t *testing.T, e store.Engine, fn func(ctx context.Context, tx store.Tx) error) {
	t.Helper()
	ctx := context.Background()
	if err := e.Read(ctx, func(tx store.Tx) error { return fn(ctx, tx) }); err != nil {
		t.Fatal(err)
	}
}

// createSession registers a worktree and an active session in it, so
// that reports can be addressed to the session.
func createSession(t *testing.T, e store.Engine, workspaceID, sessionID string) {
	t.Helper()
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		wt := "wt_" + sessionID
		err := tx.AddWorktree(ctx, workspaceID, store.WorktreeFacts{Identity: gitstate.Identity{
			RootPath: "/enginetest/" + wt, RepositoryKey: "local-path:" + workspaceID, Fingerprint: "path:" + wt,
			WorktreeID: wt}}, clock)
		if err != nil {
			return err
		}
		return tx.InsertSession(ctx, store.NewSession{ID: sessionID, WorkspaceID: workspaceID, WorktreeID: wt,
			Actor: "enginetest", TokenHash: journal.GenesisHash, JoinedAt: clock,
			Cursor: journal.Anchor{EpochID: "epoch_" + workspaceID, Hash: journal.GenesisHash}})
	})
}

// report is a minimal report of a workspace at an event sequence.
func report(workspaceID, id string, sequence int64) store.Report {
	return store.Report{ID: id, WorkspaceID: workspaceID, FromActor: "enginetest", Kind: "observation", Body: id,
		Confidence: "unknown", Relation: "informs", CreatedAt: clock, EventSequence: sequence}
}

// relating is a report that targets another with a relation.
func relating(workspaceID, id string, sequence int64, relation, target string) store.Report {
	r := report(workspaceID, id, sequence)
	r.Relation, r.TargetReportID = relation, &target
	return r
}

func insertReports(t *testing.T, e store.Engine, reports ...store.Report) {
	t.Helper()
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, r := range reports {
			if err := tx.InsertReport(ctx, r); err != nil {
				return fmt.Errorf("insert %s: %w", r.ID, err)
			}
		}
		return nil
	})
}

func reportIDs(reports []store.Report) []string {
	ids := []string{}
	for _, r := range reports {
		ids = append(ids, r.ID)
	}
	return ids
}

// reportsFilteredInSequenceOrder lists reports through every filter of
// ReportFilter: results come in event sequence order whatever the insert
// order and the ids, stay in their workspace, and an empty result is
// empty, not nil.
func reportsFilteredInSequenceOrder(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_reports")
	createWorkspace(t, e, "ws_elsewhere")
	createSession(t, e, "ws_reports", "session_a")
	createSession(t, e, "ws_reports", "session_b")
	toA, toB := "session_a", "session_b"
	r := func(id string, seq int64, to *string) store.Report {
		rep := report("ws_reports", id, seq)
		rep.ToSessionID = to
		return rep
	}
	decided := r("r_a", 4, &toB)
	decided.Kind = "decision"
	insertReports(t, e, r("r_k", 5, nil), r("r_c", 2, &toA), decided, r("r_m", 1, nil), r("r_x", 3, &toA),
		report("ws_elsewhere", "r9", 1))
	cases := []struct {
		name string
		f    store.ReportFilter
		want []string
	}{
		{"everything, by sequence", store.ReportFilter{}, []string{"r_m", "r_c", "r_x", "r_a", "r_k"}},
		{"after is exclusive", store.ReportFilter{After: 2}, []string{"r_x", "r_a", "r_k"}},
		{"through is inclusive", store.ReportFilter{Through: 3}, []string{"r_m", "r_c", "r_x"}},
		{"after and through", store.ReportFilter{After: 1, Through: 4}, []string{"r_c", "r_x", "r_a"}},
		{"limit keeps the oldest", store.ReportFilter{Limit: 2}, []string{"r_m", "r_c"}},
		{"limit after the other filters", store.ReportFilter{After: 1, Limit: 2}, []string{"r_c", "r_x"}},
		{"addressed to one session", store.ReportFilter{ToSessionID: "session_a"}, []string{"r_c", "r_x"}},
		{"routed to a session includes broadcasts", store.ReportFilter{RoutedTo: "session_b"}, []string{"r_m", "r_a", "r_k"}},
		{"nothing after the last", store.ReportFilter{After: 5}, []string{}},
		{"nobody addressed", store.ReportFilter{ToSessionID: "session_nobody"}, []string{}},
		{"one kind", store.ReportFilter{Kind: "observation", Through: 4}, []string{"r_m", "r_c", "r_x"}},
		{"newest first", store.ReportFilter{NewestFirst: true}, []string{"r_k", "r_a", "r_x", "r_c", "r_m"}},
		{"limit keeps the newest when newest first", store.ReportFilter{NewestFirst: true, Limit: 2}, []string{"r_k", "r_a"}},
		{"newest first of one kind", store.ReportFilter{NewestFirst: true, Kind: "decision"}, []string{"r_a"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read(t, e, func(ctx context.Context, tx store.Tx) error {
				got, err := tx.Reports(ctx, "ws_reports", c.f)
				if err != nil {
					return err
				}
				if got == nil {
					return errors.New("Reports returned nil, want an empty list")
				}
				if ids := reportIDs(got); !slices.Equal(ids, c.want) {
					return fmt.Errorf("Reports(%+v) = %v, want %v", c.f, ids, c.want)
				}
				return nil
			})
		})
	}
}

// reportRoundTrip stores a report with every field set and one with none,
// and reads both back as stored: evidence references in the order given,
// and an empty list (not nil) for a report stored without any.
func reportRoundTrip(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_round")
	createSession(t, e, "ws_round", "session_a")
	text := func(s string) *string { return &s }
	full := store.Report{ID: "r_full", WorkspaceID: "ws_round", FromSessionID: text("session_a"), FromActor: "alice",
		ToSessionID: text("session_a"), Kind: "decision", Body: "body ✓ \u2028 <b>", EvidenceRefs: []string{"report:z", "event:a", "report:m"},
		Confidence: "high", ConfidenceBasis: text("basis"), Limits: text("limits"), Relation: "informs",
		AuthorityScope: text("scope"), AuthorityBasis: text("basis2"), CreatedAt: clock, EventSequence: 7}
	bare := report("ws_round", "r_bare", 8)
	insertReports(t, e, full, bare)
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		got, found, err := tx.Report(ctx, "r_full")
		if err != nil || !found {
			return fmt.Errorf("Report(r_full) found=%v err=%v", found, err)
		}
		if fmt.Sprintf("%+v", deref(got)) != fmt.Sprintf("%+v", deref(full)) {
			return fmt.Errorf("read back %+v, want %+v", deref(got), deref(full))
		}
		got, found, err = tx.Report(ctx, "r_bare")
		if err != nil || !found || got.EvidenceRefs == nil || len(got.EvidenceRefs) != 0 {
			return fmt.Errorf("Report(r_bare) = %+v found=%v err=%v, want empty evidence", got, found, err)
		}
		if _, found, err = tx.Report(ctx, "r_missing"); err != nil || found {
			return fmt.Errorf("Report(r_missing) found=%v err=%v, want not found", found, err)
		}
		return nil
	})
}

// deref renders a report's optional fields by value, so two reports
// compare by content.
func deref(r store.Report) []any {
	v := func(p *string) any {
		if p == nil {
			return nil
		}
		return *p
	}
	return []any{r.ID, r.WorkspaceID, v(r.TaskID), v(r.FromSessionID), r.FromActor, v(r.ToSessionID), r.Kind, r.Body,
		r.EvidenceRefs, r.Confidence, v(r.ConfidenceBasis), v(r.Limits), r.Relation, v(r.TargetReportID),
		v(r.AuthorityScope), v(r.AuthorityBasis), r.CreatedAt, r.EventSequence}
}

// reportsFilteredByRelationAndTarget checks the two relation reads: a
// window filtered by relation comes in event sequence order (ties in any
// order); the reports targeting one report come in any order, only with
// the relations asked for (or every relation), and only from the
// workspace; a target filter with a window, limit or direction is
// refused.
func reportsFilteredByRelationAndTarget(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_rel")
	createWorkspace(t, e, "ws_rel_other")
	const ws = "ws_rel"
	insertReports(t, e,
		report(ws, "base", 1),
		relating(ws, "ch_b", 2, "challenges", "base"),
		relating(ws, "ch_a", 2, "challenges", "base"),
		relating(ws, "sup", 3, "supports", "base"),
		relating(ws, "wd", 4, "withdraws", "ch_a"),
		relating(ws, "co", 5, "corrects", "base"),
		relating(ws, "ss_a", 6, "supersedes", "co"),
		relating(ws, "ss_b", 6, "supersedes", "base"),
		relating(ws, "res", 7, "resolves", "ch_b"),
		relating("ws_rel_other", "far", 8, "withdraws", "base"),
	)
	obsoleting := []string{"withdraws", "corrects", "supersedes"}
	cases := []struct {
		name    string
		f       store.ReportFilter
		ordered bool
		want    []string
	}{
		{"relations in sequence order", store.ReportFilter{Relations: obsoleting}, true, []string{"wd", "co", "ss_a", "ss_b"}},
		{"relations after a sequence", store.ReportFilter{Relations: obsoleting, After: 5}, true, []string{"ss_a", "ss_b"}},
		{"targeted relations", store.ReportFilter{Relations: []string{"informs", "supports"}, Targeted: true}, true,
			[]string{"sup"}},
		{"targeted reports of a kind", store.ReportFilter{Targeted: true, Kind: "observation", Through: 3}, true,
			[]string{"ch_a", "ch_b", "sup"}},
		{"relations newest first", store.ReportFilter{Relations: []string{"challenges", "resolves"}, NewestFirst: true},
			true, []string{"res", "ch_a", "ch_b"}},
		{"one relation at a target", store.ReportFilter{Target: "base", Relations: []string{"challenges"}}, false,
			[]string{"ch_a", "ch_b"}},
		{"several relations at a target", store.ReportFilter{Target: "base", Relations: []string{"supersedes", "corrects",
			"supports"}}, false, []string{"co", "ss_b", "sup"}},
		{"every relation at a target", store.ReportFilter{Target: "ch_a"}, false, []string{"wd"}},
		{"another workspace's link is not counted", store.ReportFilter{Target: "base", Relations: []string{"withdraws"}},
			false, []string{}},
		{"nothing targets it", store.ReportFilter{Target: "res"}, false, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read(t, e, func(ctx context.Context, tx store.Tx) error {
				got, err := tx.Reports(ctx, ws, c.f)
				if err != nil {
					return err
				}
				if got == nil {
					return errors.New("Reports returned nil, want an empty list")
				}
				if c.ordered && !slices.IsSortedFunc(got, func(a, b store.Report) int {
					if c.f.NewestFirst {
						a, b = b, a
					}
					return int(a.EventSequence - b.EventSequence)
				}) {
					return fmt.Errorf("Reports(%+v) = %v, not in sequence order", c.f, reportIDs(got))
				}
				ids := reportIDs(got)
				slices.Sort(ids)
				if !slices.Equal(ids, sorted(c.want)) {
					return fmt.Errorf("Reports(%+v) = %v, want %v", c.f, reportIDs(got), c.want)
				}
				return nil
			})
		})
	}
	for _, f := range []store.ReportFilter{{Target: "base", After: 1}, {Target: "base", Through: 3},
		{Target: "base", Limit: 1}, {Target: "base", NewestFirst: true}} {
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			if got, err := tx.Reports(ctx, ws, f); err == nil {
				return fmt.Errorf("Reports(%+v) = %v, want a refusal", f, reportIDs(got))
			}
			return nil
		})
	}
}

// sorted returns a sorted copy of ids.
func sorted(ids []string) []string {
	out := slices.Clone(ids)
	slices.Sort(out)
	return out
}

// rolledBackReportIsNotFound inserts a report in a write that is refused
// afterwards: no lookup finds it.
func rolledBackReportIsNotFound(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_rollback")
	refusal := errors.New("refused after the insert")
	err := e.Write(context.Background(), func(tx store.Tx) error {
		if err := tx.InsertReport(context.Background(), report("ws_rollback", "r_gone", 1)); err != nil {
			return err
		}
		if err := tx.InsertDecision(context.Background(), store.Decision{ID: "d_gone", WorkspaceID: "ws_rollback",
			Topic: "t", Decision: "d", RecordedBy: "enginetest", RecordedAt: clock}); err != nil {
			return err
		}
		return refusal
	})
	if !errors.Is(err, refusal) {
		t.Fatalf("write returned %v, want the refusal", err)
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		if _, found, err := tx.Report(ctx, "r_gone"); err != nil || found {
			return fmt.Errorf("Report after rollback: found=%v err=%v", found, err)
		}
		if found, err := tx.Recorded(ctx, "ws_rollback", store.RecordReport, "r_gone"); err != nil || found {
			return fmt.Errorf("Recorded(report) after rollback: %v %v", found, err)
		}
		if list, err := tx.Reports(ctx, "ws_rollback", store.ReportFilter{}); err != nil || len(list) != 0 {
			return fmt.Errorf("Reports after rollback: %v %v", reportIDs(list), err)
		}
		if list, err := tx.Decisions(ctx, "ws_rollback", 10); err != nil || len(list) != 0 {
			return fmt.Errorf("Decisions after rollback: %v %v", list, err)
		}
		return nil
	})
}

// decisionsNewestFirst lists decisions by recorded time, then id, both
// descending, capped by the limit, confined to the workspace.
func decisionsNewestFirst(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_dec")
	createWorkspace(t, e, "ws_dec_other")
	rationale := "because"
	d := func(ws, id, at string) store.Decision {
		return store.Decision{ID: id, WorkspaceID: ws, Topic: "topic " + id, Decision: "decide " + id,
			Rationale: &rationale, RecordedBy: "lead", RecordedAt: at}
	}
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		for _, x := range []store.Decision{d("ws_dec", "d_b", "2026-01-01T00:00:02.000Z"),
			d("ws_dec", "d_a", "2026-01-01T00:00:03.000Z"), d("ws_dec", "d_c", "2026-01-01T00:00:02.000Z"),
			d("ws_dec", "d_0", "2026-01-01T00:00:01.000Z"), d("ws_dec_other", "d_z", "2026-01-01T00:00:09.000Z")} {
			if err := tx.InsertDecision(ctx, x); err != nil {
				return err
			}
		}
		return nil
	})
	cases := []struct {
		name, ws string
		limit    int
		want     []string
	}{
		{"all, newest first, id descending on a tie", "ws_dec", 10, []string{"d_a", "d_c", "d_b", "d_0"}},
		{"limit keeps the newest", "ws_dec", 2, []string{"d_a", "d_c"}},
		{"empty workspace", "ws_nobody", 10, []string{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read(t, e, func(ctx context.Context, tx store.Tx) error {
				list, err := tx.Decisions(ctx, c.ws, c.limit)
				if err != nil {
					return err
				}
				ids := []string{}
				for _, x := range list {
					ids = append(ids, x.ID)
				}
				if list == nil || !slices.Equal(ids, c.want) {
					return fmt.Errorf("Decisions(%s, %d) = %v (nil=%v), want %v", c.ws, c.limit, ids, list == nil, c.want)
				}
				if len(list) > 0 && (list[0].Rationale == nil || *list[0].Rationale != rationale || list[0].Topic != "topic "+list[0].ID) {
					return fmt.Errorf("decision read back as %+v", list[0])
				}
				return nil
			})
		})
	}
}

// evidenceConfinedToWorkspace finds each kind of record in its own
// workspace only, nothing for ids nobody stored or stored as another
// kind, refuses a kind it has no table for, and lists no checkpoint of a
// task stored without one.
func evidenceConfinedToWorkspace(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_ev")
	createWorkspace(t, e, "ws_ev_other")
	var event journal.Event
	write(t, e, func(ctx context.Context, tx store.Tx) error {
		var err error
		if event, err = appendOne(ctx, tx, "ws_ev", "evidence"); err != nil {
			return err
		}
		if err := tx.InsertTask(ctx, store.NewTask{ID: "task_ev", WorkspaceID: "ws_ev", Title: "evidence",
			CreatedAt: clock}); err != nil {
			return err
		}
		return tx.InsertArtifact(ctx, "ws_ev", store.Artifact{ID: "artifact_ev", TaskID: "task_ev", Kind: "file",
			URI: "src/a.go", AttachedBy: "enginetest", AttachedAt: clock})
	})
	insertReports(t, e, report("ws_ev", "r_ev", 1))
	cases := []struct {
		name   string
		kind   store.RecordKind
		ws, id string
		want   bool
	}{
		{"event in its workspace", store.RecordEvent, "ws_ev", event.ID, true},
		{"event from another workspace", store.RecordEvent, "ws_ev_other", event.ID, false},
		{"report in its workspace", store.RecordReport, "ws_ev", "r_ev", true},
		{"report from another workspace", store.RecordReport, "ws_ev_other", "r_ev", false},
		{"a report id is not an event", store.RecordEvent, "ws_ev", "r_ev", false},
		{"artifact in its workspace", store.RecordArtifact, "ws_ev", "artifact_ev", true},
		{"artifact from another workspace", store.RecordArtifact, "ws_ev_other", "artifact_ev", false},
		{"missing artifact", store.RecordArtifact, "ws_ev", "artifact_missing", false},
		{"task in its workspace", store.RecordTask, "ws_ev", "task_ev", true},
		{"task from another workspace", store.RecordTask, "ws_ev_other", "task_ev", false},
		{"missing task", store.RecordTask, "ws_ev", "task_missing", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			read(t, e, func(ctx context.Context, tx store.Tx) error {
				got, err := tx.Recorded(ctx, c.ws, c.kind, c.id)
				if err != nil || got != c.want {
					return fmt.Errorf("Recorded(%s, %s, %s) = %v, %v; want %v", c.ws, c.kind, c.id, got, err, c.want)
				}
				return nil
			})
		})
	}
	read(t, e, func(ctx context.Context, tx store.Tx) error {
		if found, err := tx.Recorded(ctx, "ws_ev", "checkpoint", "r_ev"); err == nil {
			return fmt.Errorf("Recorded of an unknown kind = %v, want an error", found)
		}
		cps, err := tx.RecordedCheckpoints(ctx, "ws_ev")
		if err != nil || cps == nil || len(cps) != 0 {
			return fmt.Errorf("RecordedCheckpoints of a workspace whose task has none = %v, %v; want an empty list", cps, err)
		}
		return nil
	})
}
