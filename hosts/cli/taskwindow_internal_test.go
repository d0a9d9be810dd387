package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// TestTaskViewsShowLiveWorkAndTheNewestCompleted checks what collab tasks
// and collab status show of a workspace with more completed tasks than
// the window: every open and claimed task, a completion awaiting review
// however old, the newest completed tasks and a line counting the rest;
// --all lists every task, as before; status's reviews and sessions are
// collab_workspace_status's.
func TestTaskViewsShowLiveWorkAndTheNewestCompleted(t *testing.T) {
	h := newOfferHistory(t)
	a := h.start("alice")
	asA, carol := store.SessionActor(a), store.LabelActor("carol")
	policy := "accepted"
	lease := h.heldAs(asA, "aaa-old-review", &policy)
	lease.IdempotencyKey = h.key()
	must(h.s.CompleteTask(h.ctx, asA, store.CompleteInput{Lease: lease, Summary: "please review"}))(t)
	const done = recentCompleted + 5
	for i := 0; i < done; i++ {
		lease := h.held(carol, fmt.Sprintf("done-%02d", i))
		lease.IdempotencyKey = h.key()
		must(h.s.CompleteTask(h.ctx, carol, store.CompleteInput{Lease: lease, Summary: "done"}))(t)
	}
	h.held(carol, "zzz-claimed")
	must(h.s.CreateTask(h.ctx, carol, store.CreateTaskInput{WorkspaceID: h.ws, IdempotencyKey: h.key(), TaskID: ptrTo("zzz-open"),
		Title: "open", PathScopes: []string{"zzz-open/**"}}))(t)
	db := filepath.Join(filepath.Dir(h.root), "collab.sqlite")
	run := func(cmd func(context.Context, []string, io.Writer, io.Writer) int, args ...string) string {
		var out, errs strings.Builder
		if code := cmd(h.ctx, append(args, "--db", db, "--workspace", h.ws), &out, &errs); code != ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errs.String())
		}
		return out.String()
	}
	hidden := fmt.Sprintf("and %d more completed", done-recentCompleted)
	list := run(Tasks)
	for _, want := range []string{"aaa-old-review", "reported_complete", "zzz-claimed", "zzz-open", fmt.Sprintf("done-%02d", done-1),
		hidden + "; --all"} {
		if !strings.Contains(list, want) {
			t.Errorf("collab tasks lacks %q:\n%s", want, list)
		}
	}
	if strings.Contains(list, "done-00 ") || strings.Count(list, "\n") != recentCompleted+4 {
		t.Errorf("collab tasks shows more than the window:\n%s", list)
	}
	every := run(Tasks, "--all")
	if strings.Count(every, "\n") != done+3 || strings.Contains(every, "more completed") {
		t.Errorf("collab tasks --all does not list every task:\n%s", every)
	}
	var doc struct {
		Tasks  []store.Task `json:"tasks"`
		Hidden int          `json:"completed_not_shown"`
	}
	if err := json.Unmarshal([]byte(run(Tasks, "--status", "completed", "--json")), &doc); err != nil ||
		len(doc.Tasks) != recentCompleted+1 || doc.Hidden != done-recentCompleted {
		t.Errorf("collab tasks --status completed --json: %d tasks, %d not shown, %v", len(doc.Tasks), doc.Hidden, err)
	}
	sv, err := loadStatus(h.ctx, &view{st: h.s, ws: store.Workspace{ID: h.ws}})
	full, ferr := h.s.Status(h.ctx, h.ws)
	if err != nil || ferr != nil || !reflect.DeepEqual(sv.Pending, full.PendingReviews) || !reflect.DeepEqual(sv.Sessions, full.ActiveSessions) {
		t.Errorf("status's reviews and sessions differ from collab_workspace_status's (%v, %v):\n%+v\n%+v", err, ferr, sv.Pending, full.PendingReviews)
	}
	if status := run(Status); !strings.Contains(status, hidden+"; collab tasks --all") || !strings.Contains(status, "aaa-old-review") {
		t.Errorf("collab status lacks the window's line or the old review:\n%s", status)
	}
}

func ptrTo(s string) *string { return &s }
