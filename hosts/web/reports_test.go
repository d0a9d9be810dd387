package web_test

import (
	"context"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/store"
)

// The reports page marks a report out of force only while the report
// that overturned it is itself in force: withdrawing a correction puts
// the corrected report back.
func TestReportsPageMarksOnlyReportsOutOfForce(t *testing.T) {
	w := newActWorld(t, false)
	ctx := context.Background()
	ss, err := w.rw.StartSession(ctx, store.StartSessionInput{RootPath: w.ws.RootPath, Actor: "ana"})
	if err != nil {
		t.Fatal(err)
	}
	cred := store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
	keys := 0
	post := func(body, relation string, target *store.Report) store.Report {
		t.Helper()
		keys++
		in := store.AppendReportInput{IdempotencyKey: "k" + string(rune('a'+keys)), Kind: "observation", Body: body}
		if target != nil {
			in.Relation, in.TargetReportID = &relation, &target.ID
		}
		a, err := w.rw.AppendReport(ctx, cred, in)
		if err != nil {
			t.Fatalf("append %q: %v", body, err)
		}
		v, _ := a.Value()
		return v.Report
	}
	red := post("the build is red", "", nil)
	green := post("the build is green", "corrects", &red)
	undo := post("that correction was wrong", "withdraws", &green)
	marks := func() map[string]string {
		t.Helper()
		resp, body := get(t, w.client, w.ts.URL+"/w/"+w.ws.ID+"/reports")
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("reports page: %d\n%s", resp.StatusCode, body)
		}
		out := map[string]string{}
		for _, m := range articles.FindAllStringSubmatch(body, -1) {
			out[m[2]] = m[1]
		}
		return out
	}
	got := marks()
	if got[red.ID] != "" || got[green.ID] != " superseded" || got[undo.ID] != "" {
		t.Fatalf("after the correction was withdrawn: red %q, green %q, undo %q; want only green out of force",
			got[red.ID], got[green.ID], got[undo.ID])
	}
	post("the correction stands after all", "withdraws", &undo)
	got = marks()
	if got[red.ID] != " superseded" || got[green.ID] != "" || got[undo.ID] != " superseded" {
		t.Fatalf("after the withdrawal was withdrawn: red %q, green %q, undo %q; want red and undo out of force",
			got[red.ID], got[green.ID], got[undo.ID])
	}
}

// articles finds each report's article: its out-of-force class, its id.
var articles = regexp.MustCompile(`<article class="report k-\w+( superseded)?" id="report-([^"]+)"`)

// A label in the reports filter names the live session bearing it: one
// whose host process has exited is ended for a person, though its row
// still says active, and does not make the label ambiguous.
func TestReportsFilterNamesTheLiveSessionOfALabel(t *testing.T) {
	w := newActWorld(t, false)
	ctx := context.Background()
	start := func(actor string) store.Credential {
		t.Helper()
		ss, err := w.rw.StartSession(ctx, store.StartSessionInput{RootPath: w.ws.RootPath, Actor: actor})
		if err != nil {
			t.Fatal(err)
		}
		return store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
	}
	gone, live, pat := start("ana"), start("ana"), start("pat")
	exited := exec.Command("true")
	if err := exited.Run(); err != nil {
		t.Skipf("no process to outlive: %v", err)
	}
	h := liveness.Holder(store.HostStdio)
	h.PID, h.ProcessStart = int64(exited.Process.Pid), 0
	if err := w.rw.RecordSessionHost(ctx, gone, h); err != nil {
		t.Fatal(err)
	}
	for i, to := range []store.Credential{gone, live} {
		if _, err := w.rw.AppendReport(ctx, pat, store.AppendReportInput{IdempotencyKey: "to" + string(rune('0'+i)),
			Kind: "observation", Body: "for session " + to.SessionID, ToSessionID: &to.SessionID}); err != nil {
			t.Fatal(err)
		}
	}
	resp, body := get(t, w.client, w.ts.URL+"/w/"+w.ws.ID+"/reports?to=ana")
	if resp.StatusCode != http.StatusOK || !strings.Contains(body, "for session "+live.SessionID) ||
		strings.Contains(body, "for session "+gone.SessionID) {
		t.Fatalf("?to=ana should list the live ana's report only: %d\n%s", resp.StatusCode, body)
	}
}
