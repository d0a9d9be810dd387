package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// runCLIWithInput is runCLI with stdin holding input.
func runCLIWithInput(t *testing.T, state, input string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = inherited(serveEnv+"=1", "XDG_STATE_HOME="+state, "NO_COLOR=")
	cmd.Stdin = strings.NewReader(input)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// personDoes runs a person's command that must succeed, with --json, and
// returns its decoded answer.
func personDoes(t *testing.T, state, db, input string, args ...string) map[string]any {
	t.Helper()
	out, errs, code := runCLIWithInput(t, state, input, append(args, "--db", db, "--json")...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("%v --json: %v\n%s", args, err, out)
	}
	return m
}

// demoWorkspace is the kept demo's workspace id, repository and head.
func demoWorkspace(t *testing.T, state, db string) (id, root string, head int64) {
	t.Helper()
	out, errs, code := runCLI(t, state, "status", "--db", db, "--json")
	if code != 0 {
		t.Fatalf("status: %s", errs)
	}
	var st struct {
		Workspace struct {
			ID       string `json:"id"`
			RootPath string `json:"root_path"`
			Head     int64  `json:"event_head_sequence"`
		} `json:"workspace"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st.Workspace.ID, st.Workspace.RootPath, st.Workspace.Head
}

// eventsAfter lists the events appended after sequence since, as
// "type by actor".
func eventsAfter(t *testing.T, state, db string, since int64) []string {
	t.Helper()
	out, errs, code := runCLI(t, state, "tail", "--json", "--since", strconv.FormatInt(since, 10), "--db", db)
	if code != 0 {
		t.Fatalf("tail: %s", errs)
	}
	var list []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if line == "" {
			continue
		}
		var e struct{ Type, Actor string }
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("tail line %q: %v", line, err)
		}
		list = append(list, e.Type+" by "+e.Actor)
	}
	return list
}

// TestPersonWorksOnTasksBesideAnAgent: over a journal the demo's server
// processes wrote, a person creates a task (its description piped in),
// claims it, completes it and hands another one off, each as its own
// process; an agent's server process sees every step through collab_next,
// its claim of an overlapping path is refused naming the person, and it
// accepts both the completion and the handoff.
func TestPersonWorksOnTasksBesideAnAgent(t *testing.T) {
	db, pat := keptDemo(t)
	ws, root, _ := demoWorkspace(t, pat, db)
	agent, err := mcptest.Start([]string{os.Args[0]}, inherited(serveEnv+"=1", "AGENTOOL_COLLAB_DB="+db))
	if err != nil {
		t.Fatal(err)
	}
	defer agent.Close()
	ok(t, agent, "collab_session_start", map[string]any{"root_path": root, "actor": "dora"})

	created := personDoes(t, pat, db, "Say what changed.\nList the steps.\n", "task", "create", "Write the upgrade notes",
		"--id", "upgrade-notes", "--path", "notes/upgrade", "--stdin", "--as", "pat")
	if str(created, "task.description") != "Say what changed.\nList the steps." || str(created, "task.work_mode") != "edit" {
		t.Fatalf("created %v", created)
	}
	if got := personDoes(t, pat, db, "", "task", "claim", "upgrade-notes"); str(got, "task.assignee") != "pat" {
		t.Fatalf("claim: %v", got)
	}
	ok(t, agent, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "d1", "task_id": "upgrade-script",
		"title": "Script the upgrade", "path_scopes": []any{"notes/upgrade/run.sh"}})
	conflict := refused(t, agent, "collab_task_claim", map[string]any{"workspace_id": ws, "idempotency_key": "d2",
		"task_id": "upgrade-script", "expected_version": 1}, "path_scope_conflict")
	if str(conflict, "assignee") != "pat" || str(conflict, "conflicting_task_id") != "upgrade-notes" {
		t.Fatalf("the agent's overlapping claim should be refused naming pat: %v", conflict)
	}
	personDoes(t, pat, db, "", "task", "complete", "upgrade-notes", "--summary", "Notes written.", "--confidence", "high")

	next := ok(t, agent, "collab_next", map[string]any{"workspace_id": ws, "event_limit": 50})
	seen := nextEvents(next)
	for _, want := range []string{"task.created by pat", "task.claimed by pat", "task.reported_complete by pat"} {
		if !slices.Contains(seen, want) {
			t.Errorf("collab_next does not show %q: %v", want, seen)
		}
	}
	task := ok(t, agent, "collab_task_get", map[string]any{"workspace_id": ws, "task_id": "upgrade-notes"})
	ok(t, agent, "collab_task_review", map[string]any{"workspace_id": ws, "idempotency_key": "d3", "task_id": "upgrade-notes",
		"expected_version": num(task, "task.version"), "outcome": "accept", "summary": "Read them; clear."})

	personDoes(t, pat, db, "", "task", "create", "Upgrade the fixtures", "--id", "fixtures", "--path", "testdata/upgrade")
	personDoes(t, pat, db, "", "task", "claim", "fixtures")
	offer := personDoes(t, pat, db, "Half the fixtures are converted;\nthe rest follow the same pattern.\n",
		"task", "handoff", "offer", "fixtures", "--to", "dora", "--stdin")
	if str(offer, "handoff.to_actor") != "dora" || str(offer, "handoff.from_actor") != "pat" {
		t.Fatalf("offer: %v", offer)
	}
	next = ok(t, agent, "collab_next", map[string]any{"workspace_id": ws, "event_limit": 50})
	offers, _ := next["handoff_offers"].([]any)
	if len(offers) != 1 || str(offers[0], "handoff.from_actor") != "pat" || str(offers[0], "task.id") != "fixtures" {
		t.Fatalf("collab_next should offer dora pat's task: %v", next["handoff_offers"])
	}
	if seen := nextEvents(next); !slices.Contains(seen, "handoff.offered by pat") || !slices.Contains(seen, "task.accepted by dora") {
		t.Errorf("collab_next events: %v", seen)
	}
	ok(t, agent, "collab_handoff_respond", map[string]any{"workspace_id": ws, "idempotency_key": "d4",
		"handoff_id": str(offers[0], "handoff.id"), "expected_version": num(offers[0], "task.version"), "response": "accept"})

	out, _, _ := runCLI(t, pat, "show", "fixtures", "--db", db)
	if !strings.Contains(out, "dora") {
		t.Errorf("after the handoff dora should hold fixtures:\n%s", out)
	}
	out, _, _ = runCLI(t, pat, "show", "upgrade-notes", "--db", db)
	if !strings.Contains(out, "accepted dora") {
		t.Errorf("after the review upgrade-notes should be accepted by dora:\n%s", out)
	}
}

// nextEvents is a collab_next answer's events as "type by actor".
func nextEvents(next map[string]any) []string {
	var out []string
	events, _ := get(next, "events.events").([]any)
	for _, e := range events {
		out = append(out, str(e, "type")+" by "+str(e, "actor"))
	}
	return out
}

// TestPersonRenewsReleasesAndRecovers: the lease commands a person needs
// besides claim and complete, and the recovery of a lease that ran out.
func TestPersonRenewsReleasesAndRecovers(t *testing.T) {
	db, pat := keptDemo(t)
	_, _, head := demoWorkspace(t, pat, db)
	personDoes(t, pat, db, "", "task", "create", "Tidy the changelog", "--id", "tidy", "--mode", "coordination", "--as", "pat")
	claimed := personDoes(t, pat, db, "", "task", "claim", "tidy", "--ttl", "60")
	renewed := personDoes(t, pat, db, "", "task", "renew", "tidy", "--ttl", "600")
	if str(renewed, "task.lease_expires_at") <= str(claimed, "task.lease_expires_at") {
		t.Errorf("renew did not extend the lease: %v then %v", claimed, renewed)
	}
	if got := personDoes(t, pat, db, "", "task", "release", "tidy", "--summary", "Half done."); str(got, "task.status") != "open" {
		t.Errorf("release: %v", got)
	}
	personDoes(t, pat, db, "", "task", "claim", "tidy")
	execSQL(t, db, `UPDATE tasks SET lease_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = 'tidy'`)
	_, errs, code := runCLI(t, pat, "task", "renew", "tidy", "--db", db)
	if code != 1 || !strings.Contains(errs, "lease_expired") || !strings.Contains(errs, "collab task recover") {
		t.Fatalf("renewing a lapsed lease: exit %d, %s", code, errs)
	}
	got := personDoes(t, pat, db, "", "task", "recover", "tidy", "--note", "My terminal slept.", "--action", "takeover")
	if str(got, "task.status") != "claimed" || str(got, "task.assignee") != "pat" {
		t.Errorf("recover: %v", got)
	}
	kinds := strings.Join(eventsAfter(t, pat, db, head), ", ")
	for _, want := range []string{"task.created by pat", "task.lease_renewed by pat", "task.released by pat", "task.recovered by pat"} {
		if !strings.Contains(kinds, want) {
			t.Errorf("journal lacks %q: %s", want, kinds)
		}
	}
}

// TestPersonTaskRefusalsNameTheRuleAndWriteNothing: each refusal of a
// person's task command exits 1 (2 for usage), names the rule by its
// registered code and who or what is in the way by name, shows no
// credential, and appends nothing at all to the journal, whether it was
// decided before the person's session was touched or by the store.
func TestPersonTaskRefusalsNameTheRuleAndWriteNothing(t *testing.T) {
	db, pat := keptDemo(t)
	personDoes(t, pat, db, "", "task", "create", "My own task", "--id", "mine", "--path", "notes/mine", "--as", "pat")
	personDoes(t, pat, db, "", "task", "claim", "mine")
	personDoes(t, pat, db, "", "task", "create", "A guide", "--id", "guide", "--path", "docs/guide")
	personDoes(t, pat, db, "", "task", "create", "After mine", "--id", "after-mine", "--path", "notes/after", "--depends", "mine")
	me := str(personDoes(t, pat, db, "", "whoami"), "session.id")
	long := strings.Repeat("x", 301)
	cases := []struct {
		name string
		args []string
		code int
		says []string
	}{
		{"an edit task without paths", []string{"task", "create", "No paths"}, 1,
			[]string{"edit_scope_required", "--path", "--mode coordination"}},
		{"a title over the schema's bound", []string{"task", "create", long, "--path", "x"}, 1,
			[]string{"invalid_input", "title must be at most 300 characters"}},
		{"two sources of one description", []string{"task", "create", "T", "--path", "x", "--stdin", "--description", "d"}, 2,
			[]string{"give the description once"}},
		{"a task another agent holds", []string{"task", "claim", "refactor-handlers"}, 1,
			[]string{"task_claimed", "held by ben"}},
		{"paths that overlap another claim", []string{"task", "claim", "guide"}, 1,
			[]string{"path_scope_conflict", `document-limits "Document the rate limits"`, "held by cy", "docs/guide ↔ docs"}},
		{"a dependency not done", []string{"task", "claim", "after-mine"}, 1,
			[]string{"dependencies_incomplete", "waiting on [mine]"}},
		{"a task you hold already", []string{"task", "claim", "mine"}, 1, []string{"task_claimed", "held by you"}},
		{"a completed task", []string{"task", "claim", "rate-limiter"}, 1, []string{"task_completed"}},
		{"an unknown task", []string{"task", "claim", "no-such-task"}, 1, []string{"task_not_found", "no-such-task"}},
		{"a lease length out of bounds", []string{"task", "claim", "guide", "--ttl", "5"}, 1,
			[]string{"invalid_input", "ttl_seconds must be from 30 to 3600"}},
		{"completing someone else's task", []string{"task", "complete", "document-limits", "--summary", "done"}, 1,
			[]string{"lease_not_holder", "held by cy"}},
		{"completing a task nobody holds", []string{"task", "complete", "guide", "--summary", "done"}, 1,
			[]string{"lease_not_active", "guide is open"}},
		{"completing with evidence that names nothing", []string{"task", "complete", "mine", "--summary", "done", "--evidence", "report:nope"}, 1,
			[]string{"evidence_not_found", "report:nope"}},
		{"completing without a summary", []string{"task", "complete", "mine"}, 2, []string{"needs a summary"}},
		{"releasing someone else's task", []string{"task", "release", "refactor-handlers"}, 1,
			[]string{"lease_not_holder", "held by ben"}},
		{"recovering a live lease", []string{"task", "recover", "document-limits", "--note", "n"}, 1,
			[]string{"recovery_not_required"}},
		{"offering a task to yourself", []string{"task", "handoff", "offer", "mine", "--to", me, "--summary", "s"}, 1,
			[]string{"invalid_handoff", "another session"}},
		{"offering a task you do not hold", []string{"handoff", "offer", "document-limits", "--to", "ben", "--summary", "s"}, 1,
			[]string{"lease_not_holder", "held by cy"}},
		{"offering a task to a name no session bears", []string{"task", "handoff", "offer", "mine", "--to", "zed", "--summary", "s"}, 1,
			[]string{"session_not_found", `"zed"`, "ben (active"}},
		{"answering an offer that does not exist", []string{"handoff", "respond", "handoff_none", "--accept"}, 1,
			[]string{"handoff_not_found", "handoff_none"}},
		{"answering an offer already answered", []string{"task", "handoff", "respond", demoHandoff(t, pat, db), "--accept"}, 1,
			[]string{"handoff_resolved", "was accepted"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, head := demoWorkspace(t, pat, db)
			out, errs, code := runCLI(t, pat, append(tc.args, "--db", db)...)
			if code != tc.code || out != "" {
				t.Fatalf("exit %d (want %d), stdout %q, stderr %s", code, tc.code, out, errs)
			}
			for _, want := range tc.says {
				if !strings.Contains(errs, want) {
					t.Errorf("stderr lacks %q:\n%s", want, errs)
				}
			}
			if strings.Contains(errs, "collab-person") || strings.Contains(errs, "token") {
				t.Errorf("a refusal shows a credential:\n%s", errs)
			}
			if tc.code == 1 { // a refusal: --json gives a script its code
				out, errs, code = runCLI(t, pat, append(tc.args, "--db", db, "--json")...)
				var doc struct{ Error, Code, Fix string }
				if err := json.Unmarshal([]byte(out), &doc); err != nil || code != 1 || errs != "" ||
					doc.Code != tc.says[0] || doc.Fix == "" || !strings.Contains(doc.Error, tc.says[0]) {
					t.Errorf("--json: exit %d, stderr %q, stdout %s; want one object with code %s and a fix",
						code, errs, out, tc.says[0])
				}
			}
			if written := eventsAfter(t, pat, db, head); len(written) > 0 {
				t.Errorf("the refusal wrote %v", written)
			}
		})
	}
}

// demoHandoff is the id of the handoff the demo's ben accepted.
func demoHandoff(t *testing.T, state, db string) string {
	t.Helper()
	out, _, _ := runCLI(t, state, "handoffs", "--all", "--db", db, "--json")
	var list struct {
		Handoffs []struct{ ID, Status string }
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list.Handoffs) == 0 {
		t.Fatalf("handoffs: %v %s", err, out)
	}
	return list.Handoffs[0].ID
}
