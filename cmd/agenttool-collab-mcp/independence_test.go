package main

import (
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// secrets are the pieces of other sessions' material a claimant must not
// receive while its claim is open: the completion's summary and evidence,
// the progress note, the artifact's location and C's addressed report.
var secrets = []string{"SUMMARY-7f3a", "PROGRESS-91bc", "example.com/LOAD-TEST-44de", "FROM-CAROL-c0ff"}

// claimantBytes is every byte one session got: answers, notifications and the
// output of the commands run for it.
type claimantBytes struct {
	t     *testing.T
	bytes []string
}

func (r *claimantBytes) call(c *mcptest.Client, tool string, args map[string]any) map[string]any {
	r.t.Helper()
	res := call(r.t, c, tool, args)
	r.bytes = append(r.bytes, string(res.Raw))
	if res.IsError {
		r.t.Fatalf("%s refused: %s", tool, res.Raw)
	}
	return res.Structured
}

// leaks lists the secrets found in anything claimantBytes so far.
func (r *claimantBytes) leaks() []string {
	all := strings.Join(r.bytes, "\n")
	var out []string
	for _, s := range secrets {
		if strings.Contains(all, s) {
			out = append(out, s)
		}
	}
	return out
}

// TestIndependenceClaimWithholdsUntilTheClaimantsFinding is the issue's
// scenario with three real server processes: alice completes a task with
// a report and evidence; ben claims independence on it; every read path of
// ben (collab_next, report and task reads, events, search, its channel
// notices, a watch process and a peek) shows the completion only as withheld, and carol's
// report addressed to ben on the task as held. Ben's own finding releases
// the claim; then he reads everything, and his review is marked
// independent. Alice and carol saw the claim in their journals.
func TestIndependenceClaimWithholdsUntilTheClaimantsFinding(t *testing.T) {
	sb := newSandbox(t)
	alice, repo, ws, completion := completeTheLimiter(t, sb)
	in := inWorkspace(ws)

	ben := sb.start(mcp.ChannelEnv + "=1")
	b := &claimantBytes{t: t}
	bs := b.call(ben, "collab_session_start", map[string]any{"root_path": repo, "actor": "ben"})
	benID := str(bs, "session.id")
	benFile := filepath.Join(filepath.Dir(sb.db), "collab-sessions", str(bs, "session_file_name"))
	claim := b.call(ben, "collab_independence_claim", in(map[string]any{"task_id": "rl", "note": "re-verifying the limiter"}))
	claimID := str(claim, "claim.id")
	_, watched := startWatch(t, sb, benFile)
	carol, _, _ := startSession(t, sb, repo, "carol")
	held := str(ok(t, carol, "collab_report_append", in(map[string]any{"idempotency_key": "r", "task_id": "rl", "to_session_id": benID,
		"kind": "observation", "body": "psst FROM-CAROL-c0ff"})), "report.id")
	note, err := ben.WaitNotification(mcp.ChannelMethod, wakeDeadline)
	if err != nil {
		t.Fatalf("no channel notice of carol's report: %v", err)
	}
	b.bytes = append(b.bytes, note["_raw"].(string))
	if !strings.Contains(note["_raw"].(string), "held") {
		t.Errorf("the channel notice does not say the report is held: %s", note["_raw"])
	}

	// ben's watch process announces carol's report too, as held.
	for seen := false; !seen; {
		select {
		case l, open := <-watched:
			if !open {
				t.Fatal("watch ended before it announced carol's report")
			}
			b.bytes = append(b.bytes, l.text)
			seen = strings.Contains(l.text, "from carol")
		case <-time.After(wakeDeadline):
			t.Fatal("watch never announced carol's report")
		}
	}
	if last := b.bytes[len(b.bytes)-1]; !strings.Contains(last, "held") {
		t.Errorf("watch announced carol's report without saying it is held: %s", last)
	}

	next := b.call(ben, "collab_next", in(map[string]any{"event_limit": 50}))
	reports := b.call(ben, "collab_report_list", in(nil))
	b.call(ben, "collab_report_list", in(map[string]any{"task_id": "rl"}))
	task := b.call(ben, "collab_task_get", in(map[string]any{"task_id": "rl"}))
	b.call(ben, "collab_task_list", in(nil))
	b.call(ben, "collab_events_since", in(map[string]any{"limit": 100}))
	found := b.call(ben, "collab_search", in(map[string]any{"query": "limits OR halfway OR psst OR load"}))
	b.call(ben, "collab_wait", in(map[string]any{"timeout_ms": 0}))
	_, peek, _ := peekAs(t, sb, "--session-file", benFile, "--json")
	b.bytes = append(b.bytes, peek)
	if err := ben.Flush(); err != nil {
		t.Fatal(err)
	}
	for _, n := range ben.Notifications(mcp.ChannelMethod) {
		b.bytes = append(b.bytes, n["_raw"].(string))
	}
	if leaks := b.leaks(); len(leaks) > 0 {
		for _, x := range b.bytes {
			for _, s := range secrets {
				if i := strings.Index(x, s); i >= 0 {
					t.Logf("%s in: %.300s ... %s", s, x, x[max(0, i-300):i+20])
				}
			}
		}
		t.Fatalf("ben claimantBytes %v while his claim was open", leaks)
	}
	// What is withheld still shows that it exists.
	if !strings.Contains(jsonOf(reports), completion) || !strings.Contains(jsonOf(reports), "[withheld: your independence claim "+claimID) {
		t.Errorf("report_list does not show the completion as withheld: %s", jsonOf(reports))
	}
	if !strings.Contains(jsonOf(next), held) || !strings.Contains(jsonOf(next), "[held: ") {
		t.Errorf("collab_next does not show carol's report as held: %s", jsonOf(next))
	}
	if str(task, "task.completion_report_id") != completion || !strings.Contains(jsonOf(task), "withheld:"+claimID) {
		t.Errorf("task_get does not show the completion and artifact as withheld: %s", jsonOf(task))
	}
	if found["withheld"] == nil {
		t.Errorf("search does not count the hits it withheld: %s", jsonOf(found))
	}
	for who, c := range map[string]*mcptest.Client{"alice": alice, "carol": carol} {
		if page := jsonOf(ok(t, c, "collab_next", in(map[string]any{"event_limit": 50}))); !strings.Contains(page, `"type":"independence.claimed"`) ||
			!strings.Contains(page, claimID) {
			t.Errorf("%s's journal does not show ben's claim: %s", who, page)
		}
	}

	finding := str(b.call(ben, "collab_report_append", in(map[string]any{"idempotency_key": "f", "task_id": "rl", "kind": "observation",
		"body": "my own measurement agrees"})), "report.id")
	after := b.call(ben, "collab_independence_list", in(nil))
	claims := get(after, "claims").([]any)
	if len(claims) != 1 || get(claims[0], "status") != "released_by_finding" || get(claims[0], "finding_report_id") != finding {
		t.Fatalf("ben's finding did not release his claim: %s", jsonOf(after))
	}
	b.call(ben, "collab_report_list", in(nil))
	b.call(ben, "collab_task_get", in(map[string]any{"task_id": "rl"}))
	b.call(ben, "collab_events_since", in(map[string]any{"limit": 100}))
	if leaks := b.leaks(); len(leaks) != len(secrets) {
		t.Errorf("after release ben read only %v of %v", leaks, secrets)
	}
	b.call(ben, "collab_task_review", in(map[string]any{"idempotency_key": "v", "task_id": "rl", "expected_version": 5,
		"outcome": "accept", "summary": "verified blind"}))
	reviews := get(b.call(ben, "collab_independence_list", in(nil)), "independent_reviews").([]any)
	if len(reviews) != 1 || get(reviews[0], "outcome") != "accepted" || get(reviews[0], "claim_id") != claimID {
		t.Errorf("ben's review is not marked independent: %v", reviews)
	}
	web := startWeb(t, sb, sb.db)
	resp, err := http.Get(web.url + "/w/" + ws + "/")
	if err != nil {
		t.Fatal(err)
	}
	board, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(board), "accepted after an independent review by <strong>ben</strong>") {
		t.Errorf("the web board does not say rl was accepted after ben's independent review:\n%s", board)
	}
}

// completeTheLimiter is what every claim scenario starts from: alice
// creates the accepted-policy task rl in a fresh repository and completes
// it, with a progress note, an artifact and a completion whose summary
// and confidence basis carry secrets (see secrets). It returns alice, the
// repository, the workspace and the completion report's id.
func completeTheLimiter(t *testing.T, sb *sandbox) (alice *mcptest.Client, repo, ws, completion string) {
	t.Helper()
	repo = sb.repo("main", map[string]string{"src/limit.go": "package src\n"})
	alice, a, _ := startSession(t, sb, repo, "alice")
	ws = str(a, "session.workspace_id")
	in := inWorkspace(ws)
	ok(t, alice, "collab_task_create", in(map[string]any{"idempotency_key": "c", "task_id": "rl", "title": "Rate limiter",
		"completion_policy": "accepted", "path_scopes": []any{"src"}}))
	lease := str(ok(t, alice, "collab_task_claim", in(map[string]any{"idempotency_key": "k", "task_id": "rl", "expected_version": 1})), "task.lease_id")
	lm := func(key string, v int, extra map[string]any) map[string]any {
		return in(merge(map[string]any{"idempotency_key": key, "task_id": "rl", "lease_id": lease, "expected_version": v}, extra))
	}
	ok(t, alice, "collab_task_progress", lm("p", 2, map[string]any{"message": "halfway PROGRESS-91bc"}))
	art := str(ok(t, alice, "collab_artifact_attach", lm("a", 3, map[string]any{"kind": "url", "uri": "https://example.com/LOAD-TEST-44de"})), "artifact.id")
	done := ok(t, alice, "collab_task_complete", lm("d", 4, map[string]any{"summary": "limits hold SUMMARY-7f3a",
		"evidence_refs": []any{"artifact:" + art}, "confidence": "high", "confidence_basis": "load test SUMMARY-7f3a"}))
	return alice, repo, ws, str(done, "task.completion_report_id")
}

// inWorkspace returns a function that adds workspace_id to a call's
// arguments.
func inWorkspace(ws string) func(map[string]any) map[string]any {
	return func(extra map[string]any) map[string]any { return merge(map[string]any{"workspace_id": ws}, extra) }
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestPersonsIndependenceClaimWithholdsFromTheirCommands is the same
// scenario for a person: pat claims independence on alice's completed
// task with `collab independence claim`; carol (an agent) addresses a
// report to pat's session; pat's show, reports, tasks and tail print none
// of the withheld material; pat's own `collab post` on the task releases
// the claim, after which pat reads everything and pat's review is shown as
// accepted after an independent review.
func TestPersonsIndependenceClaimWithholdsFromTheirCommands(t *testing.T) {
	sb := newSandbox(t)
	_, repo, ws, _ := completeTheLimiter(t, sb)
	in := inWorkspace(ws)

	pat := t.TempDir()
	var seen []string
	cli := func(args ...string) string {
		t.Helper()
		out, errs, code := runCLI(t, pat, append(args, "--db", sb.db, "--workspace", ws)...)
		if code != 0 {
			t.Fatalf("collab %v: exit %d: %s", args, code, errs)
		}
		seen = append(seen, out, errs)
		return out
	}
	claimed := cli("independence", "claim", "--task", "rl", "--as", "pat", "--note", "checking the limiter myself")
	if !strings.Contains(claimed, "claimed independence on task:rl") {
		t.Fatalf("claim printed %q", claimed)
	}
	var who struct {
		Session struct {
			ID string `json:"id"`
		} `json:"session"`
	}
	if err := json.Unmarshal([]byte(cli("whoami", "--json")), &who); err != nil || who.Session.ID == "" {
		t.Fatalf("whoami: %v", err)
	}
	carol, _, _ := startSession(t, sb, repo, "carol")
	ok(t, carol, "collab_report_append", in(map[string]any{"idempotency_key": "r", "task_id": "rl", "to_session_id": who.Session.ID,
		"kind": "observation", "body": "psst FROM-CAROL-c0ff"}))
	if page := jsonOf(ok(t, carol, "collab_next", in(map[string]any{"event_limit": 50}))); !strings.Contains(page, `"independence.claimed"`) {
		t.Errorf("carol's journal does not show pat's claim: %s", page)
	}

	show := cli("show", "rl")
	cli("show", "rl", "--json")
	reports := cli("reports")
	cli("reports", "--json")
	cli("tasks", "--json")
	cli("tail")
	cli("tail", "--json")
	cli("independence", "list")
	found := cli("search", "limits", "hold")
	cli("search", "psst", "--json")
	all := strings.Join(seen, "\n")
	if !strings.Contains(found, "withheld by your open independence claim") {
		t.Errorf("search does not say that hits were withheld:\n%s", found)
	}
	for _, s := range secrets {
		if strings.Contains(all, s) {
			t.Errorf("pat's commands printed %s while the claim was open", s)
		}
	}
	if !strings.Contains(show, "[withheld: your independence claim") || !strings.Contains(reports, "[held: your independence claim") {
		t.Errorf("show and reports do not say what is withheld and held:\n%s\n%s", show, reports)
	}

	cli("post", "my own measurement agrees", "--task", "rl")
	seen = nil
	cli("show", "rl", "--json")
	cli("reports", "--json")
	cli("tail", "--json")
	cli("search", "limits", "hold")
	all = strings.Join(seen, "\n")
	for _, s := range secrets {
		if !strings.Contains(all, s) {
			t.Errorf("after pat's finding, %s is still withheld", s)
		}
	}
	cli("review", "rl", "--accept", "--summary", "verified blind")
	if list := cli("independence", "list"); !strings.Contains(list, "task rl accepted after an independent review by pat") ||
		!strings.Contains(list, "released by its finding") {
		t.Errorf("independence list after the review:\n%s", list)
	}
	if show := cli("show", "rl"); !strings.Contains(show, "accepted after an independent review") {
		t.Errorf("show does not say the task was accepted after an independent review:\n%s", show)
	}
}
