package main

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	_ "modernc.org/sqlite"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// referenceEnv names the command that runs the reference implementation
// (@agenttool/collab 0.4.0) as an MCP stdio server. CI has no reference,
// so the tests that compare against it skip when it is unset.
const referenceEnv = "COLLAB_REFERENCE_CMD"

// implementation is one server under comparison.
type implementation struct {
	name string
	argv []string
}

func thisImplementation() implementation {
	return implementation{name: "collab", argv: []string{os.Args[0]}}
}

// referenceCommand is the reference server's command line from
// referenceEnv, or nil when it is unset.
func referenceCommand() []string {
	return strings.Fields(os.Getenv(referenceEnv))
}

func referenceImplementation(t *testing.T) implementation {
	t.Helper()
	cmd := referenceCommand()
	if len(cmd) == 0 {
		t.Skipf("set %s to the reference server command (e.g. /work/ref/reference-mcp) to compare against it", referenceEnv)
	}
	return implementation{name: "reference", argv: cmd}
}

// driver runs named server processes of one implementation on one
// sandbox and keeps a transcript of every outcome, normalised so that two
// implementations' transcripts compare line by line.
type driver struct {
	t     *testing.T
	sb    *sandbox
	impl  implementation
	procs map[string]*mcptest.Client
	lines []string
}

func newDriver(t *testing.T, sb *sandbox, impl implementation) *driver {
	return &driver{t: t, sb: sb, impl: impl, procs: map[string]*mcptest.Client{}}
}

// start launches process name (replacing one of that name) with extra env.
func (d *driver) start(name string, extra ...string) {
	d.t.Helper()
	if old := d.procs[name]; old != nil {
		old.Close()
	}
	c, err := mcptest.Start(d.impl.argv, d.sb.env(extra...))
	if err != nil {
		d.t.Fatalf("%s: start %s: %v", d.impl.name, name, err)
	}
	d.t.Cleanup(func() { c.Close() })
	d.procs[name] = c
}

// call runs a tool on process who, records its normalised outcome and
// returns the structured result.
func (d *driver) call(who, tool string, args map[string]any) map[string]any {
	d.t.Helper()
	c := d.procs[who]
	if c == nil {
		d.start(who)
		c = d.procs[who]
	}
	r, err := c.Call(tool, args)
	if err != nil {
		d.t.Fatalf("%s %s: %v\nstderr: %s", d.impl.name, tool, err, c.Stderr())
	}
	d.lines = append(d.lines, fmt.Sprintf("%s %s -> %s", who, tool, d.describe(tool, r)))
	return r.Structured
}

// describe is an outcome without what may differ legitimately: ids,
// times, tokens, paths and the wording of refusal messages.
func (d *driver) describe(tool string, r mcptest.Result) string {
	switch {
	case r.RPCError != nil:
		return fmt.Sprintf("rpc error %d", r.RPCError.Code)
	case r.Structured == nil:
		return "input rejected"
	case r.IsError:
		delete(r.Structured, "message")
		b, _ := json.Marshal(r.Structured)
		return "refused " + d.normalize(string(b))
	}
	// The text mirror is compared as it is, so key order counts; only
	// anchor_status's two prose fields are worded independently.
	text := r.Text
	if tool == "collab_anchor_status" {
		text = anchorProse.ReplaceAllString(text, `"$1": "<prose>"`)
	}
	return "ok " + d.normalize(text)
}

var anchorProse = regexp.MustCompile(`"(scope_note|reason)": "[^"]*"`)

var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "<uuid>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`), "<time>"},
	{regexp.MustCompile(`\b(ws|wt)_[0-9a-f]{24}\b`), "<$1>"},
	{regexp.MustCompile(`\b[0-9a-f]{64}\b`), "<sha256>"},
}

func (d *driver) normalize(s string) string {
	s = strings.ReplaceAll(s, d.sb.root, "<root>")
	for _, v := range volatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return s
}

// stored returns the database's receipts and events, normalised, in the
// order they were written.
func (d *driver) stored() []string {
	d.t.Helper()
	db, err := sql.Open("sqlite", "file:"+d.sb.db+"?mode=ro")
	if err != nil {
		d.t.Fatal(err)
	}
	defer db.Close()
	var out []string
	for _, q := range []string{
		"SELECT 'receipt ' || actor || ' ' || idempotency_key || ' ' || operation || ' ' || response_json FROM mutations ORDER BY rowid",
		"SELECT 'event ' || sequence || ' ' || type || ' ' || entity_id || ' ' || actor || ' ' || payload_json FROM events ORDER BY workspace_id, sequence",
	} {
		rows, err := db.Query(q)
		if err != nil {
			d.t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				d.t.Fatal(err)
			}
			out = append(out, d.normalize(s))
		}
		rows.Close()
	}
	// Session ids of events are compared through the events' own
	// session_id column where it exists.
	rows, err := db.Query("SELECT sequence, type, COALESCE(session_id, 'null') FROM events ORDER BY workspace_id, sequence")
	if err == nil {
		for rows.Next() {
			var seq int
			var typ, sess string
			if rows.Scan(&seq, &typ, &sess) == nil {
				out = append(out, d.normalize(fmt.Sprintf("event-session %d %s %s", seq, typ, sess)))
			}
		}
		rows.Close()
	}
	return out
}

// compareLines reports every line where the two transcripts differ and
// returns how many lines were compared and how many differed.
func compareLines(t *testing.T, what string, ours, ref []string) (compared, differ int) {
	t.Helper()
	n := max(len(ours), len(ref))
	for i := range n {
		var a, b string
		if i < len(ours) {
			a = ours[i]
		}
		if i < len(ref) {
			b = ref[i]
		}
		compared++
		if a != b {
			differ++
			t.Errorf("%s line %d differs:\n collab:    %s\n reference: %s", what, i+1, a, b)
		}
	}
	return compared, differ
}

// differentialRepo makes the same repository in any sandbox: fixed
// content, author and dates, so commit ids agree.
func differentialRepo(sb *sandbox) string {
	return sb.repo("main", map[string]string{"README.md": "# fixture\n", "src/app.go": "package app\n"})
}

// TestDifferentialSameCallsSameOutcomes drives this server and the
// reference with the same calls on separate databases and requires the
// same codes, fields, text mirrors, stored receipts and event contents.
func TestDifferentialSameCallsSameOutcomes(t *testing.T) {
	ref := referenceImplementation(t)
	var transcripts, stores [2][]string
	for i, impl := range []implementation{thisImplementation(), ref} {
		sb := newSandbox(t)
		d := newDriver(t, sb, impl)
		differentialScript(d, differentialRepo(sb))
		for _, c := range d.procs {
			c.Close()
		}
		transcripts[i], stores[i] = d.lines, d.stored()
	}
	requireEveryToolSucceeded(t, transcripts[0])
	calls, callDiffs := compareLines(t, "outcome", transcripts[0], transcripts[1])
	rows, rowDiffs := compareLines(t, "stored", stores[0], stores[1])
	t.Logf("compared %d call outcomes (%d differ) and %d stored receipts/events (%d differ)", calls, callDiffs, rows, rowDiffs)
}

// differentialScript calls every one of the 32 tools, on success and
// refusal paths, with idempotent retries, in legacy and session mode.
func differentialScript(d *driver, repo string) {
	// Legacy plane: process L acts under actor labels.
	ws := str(d.call("L", "collab_workspace_open", map[string]any{"root_path": repo, "actor": "carol"}), "workspace.id")
	d.call("L", "collab_workspace_status", map[string]any{"workspace_id": ws})
	d.call("L", "collab_workspace_status", map[string]any{"workspace_id": "ws_missing"})
	legacy := func(extra map[string]any) map[string]any {
		m := map[string]any{"workspace_id": ws, "actor": "carol"}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	create := legacy(map[string]any{"idempotency_key": "l-create", "task_id": "legacy-task", "title": "Legacy \u2028 task", "path_scopes": []any{"docs"}})
	d.call("L", "collab_task_create", create)
	d.call("L", "collab_task_create", create)
	d.call("L", "collab_task_create", legacy(map[string]any{"idempotency_key": "l-create", "title": "Other"}))
	d.call("L", "collab_task_list", map[string]any{"workspace_id": ws})
	d.call("L", "collab_task_get", map[string]any{"workspace_id": ws, "task_id": "legacy-task"})
	d.call("L", "collab_task_get", map[string]any{"workspace_id": ws, "task_id": "nope"})
	claim := legacy(map[string]any{"idempotency_key": "l-claim", "task_id": "legacy-task", "expected_version": 1})
	lease := str(d.call("L", "collab_task_claim", claim), "task.lease_id")
	d.call("L", "collab_task_claim", claim)
	d.call("L", "collab_task_claim", legacy(map[string]any{"idempotency_key": "l-claim-2", "task_id": "legacy-task", "expected_version": 1}))
	lm := func(key string, version int, extra map[string]any) map[string]any {
		m := legacy(map[string]any{"idempotency_key": key, "task_id": "legacy-task", "lease_id": lease, "expected_version": version})
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	for _, step := range []struct {
		tool string
		args map[string]any
	}{
		{"collab_task_renew", lm("l-renew", 2, nil)},
		{"collab_task_progress", lm("l-progress", 3, map[string]any{"message": "half way"})},
		{"collab_artifact_attach", lm("l-attach", 4, map[string]any{"kind": "file", "uri": "file:///docs/a.md"})},
		{"collab_handoff_offer", lm("l-offer", 5, map[string]any{"to_actor": "dave", "summary": "over to dave"})},
	} {
		d.call("L", step.tool, step.args)
		d.call("L", step.tool, step.args)
	}
	d.call("L", "collab_task_progress", lm("l-progress-bad", 9, map[string]any{"message": "stale"}))
	dec := legacy(map[string]any{"idempotency_key": "l-decide", "topic": "docs", "decision": "Use markdown"})
	d.call("L", "collab_decision_record", dec)
	d.call("L", "collab_decision_record", dec)
	next := d.call("L", "collab_next", map[string]any{"workspace_id": ws, "actor": "dave"})
	offer, _ := get(next, "handoff_offers").([]any)
	var offerID string
	if len(offer) > 0 {
		offerID = str(offer[0], "id")
	}
	respond := map[string]any{"workspace_id": ws, "actor": "dave", "idempotency_key": "l-accept", "handoff_id": offerID,
		"expected_version": 6, "response": "accept"}
	newLease := str(d.call("L", "collab_handoff_respond", respond), "task.lease_id")
	d.call("L", "collab_handoff_respond", respond)
	dave := func(key string, version int, extra map[string]any) map[string]any {
		m := map[string]any{"workspace_id": ws, "actor": "dave", "idempotency_key": key, "task_id": "legacy-task",
			"lease_id": newLease, "expected_version": version}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	d.call("L", "collab_task_block", dave("l-block", 7, map[string]any{"blocker": "waiting"}))
	d.call("L", "collab_task_block", dave("l-block", 7, map[string]any{"blocker": "waiting"}))
	unblock := legacy(map[string]any{"idempotency_key": "l-unblock", "task_id": "legacy-task", "expected_version": 8})
	d.call("L", "collab_task_unblock", unblock)
	d.call("L", "collab_task_unblock", unblock)
	lease = str(d.call("L", "collab_task_claim", legacy(map[string]any{"idempotency_key": "l-claim-3", "task_id": "legacy-task", "expected_version": 9})), "task.lease_id")
	d.call("L", "collab_task_release", lm("l-release", 10, map[string]any{"summary": "back"}))
	d.call("L", "collab_task_release", lm("l-release", 10, map[string]any{"summary": "back"}))
	lease = str(d.call("L", "collab_task_claim", legacy(map[string]any{"idempotency_key": "l-claim-4", "task_id": "legacy-task", "expected_version": 11})), "task.lease_id")
	d.call("L", "collab_task_complete", lm("l-complete", 12, map[string]any{"summary": "done"}))
	d.call("L", "collab_task_complete", lm("l-complete", 12, map[string]any{"summary": "done"}))

	// Presence hints.
	join := map[string]any{"workspace_id": ws, "client_instance_id": "client-1", "actor_label": "carol", "runtime_kind": "codex",
		"provider_label": "   ", "model_label": "\u3000"}
	p := d.call("L", "collab_session_join", join)
	d.call("L", "collab_session_join", join)
	d.call("L", "collab_session_join", map[string]any{"workspace_id": ws, "client_instance_id": "client-1", "actor_label": "carol",
		"runtime_kind": "codex", "provider_label": "acme"})
	d.call("L", "collab_session_list", map[string]any{"workspace_id": ws})
	pid, pv := str(p, "session.id"), num(p, "session.version")
	hb := map[string]any{"session_id": pid, "idempotency_key": "p-beat", "expected_version": pv}
	d.call("L", "collab_session_heartbeat", hb)
	d.call("L", "collab_session_heartbeat", hb)
	leave := map[string]any{"session_id": pid, "idempotency_key": "p-leave", "expected_version": pv + 1}
	d.call("L", "collab_session_leave", leave)
	d.call("L", "collab_session_leave", leave)

	// Session plane: processes A and B hold sessions.
	a := d.call("A", "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	b := d.call("B", "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	aID, bID := str(a, "session.id"), str(b, "session.id")
	sc := func(key string, extra map[string]any) map[string]any {
		m := map[string]any{"workspace_id": ws, "idempotency_key": key}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	twice := func(who, tool string, args map[string]any) map[string]any {
		r := d.call(who, tool, args)
		d.call(who, tool, args)
		return r
	}
	twice("A", "collab_task_create", sc("s-create", map[string]any{"task_id": "feature", "title": "Feature", "path_scopes": []any{"src"}}))
	twice("A", "collab_task_create", sc("s-create-coord", map[string]any{"task_id": "coord", "title": "Coordinate", "work_mode": "coordination"}))
	sl := str(twice("A", "collab_task_claim", sc("s-claim", map[string]any{"task_id": "feature", "expected_version": 1})), "task.lease_id")
	fl := func(key string, version int, extra map[string]any) map[string]any {
		return sc(key, merge(map[string]any{"task_id": "feature", "lease_id": sl, "expected_version": version}, extra))
	}
	twice("A", "collab_task_renew", fl("s-renew", 2, nil))
	twice("A", "collab_task_progress", fl("s-progress", 3, map[string]any{"message": "started"}))
	twice("A", "collab_artifact_attach", fl("s-attach", 4, map[string]any{"kind": "test", "uri": "file:///src/app_test.go"}))
	// Check order of a session offer: the target before the task.
	d.call("A", "collab_handoff_offer", fl("s-offer-self", 99, map[string]any{"to_session_id": aID, "summary": "x"}))
	d.call("A", "collab_handoff_offer", fl("s-offer-ghost", 99, map[string]any{"to_session_id": "session_ghost", "summary": "x"}))
	d.call("A", "collab_handoff_offer", sc("s-offer-notask", map[string]any{"task_id": "nope", "lease_id": sl, "expected_version": 5,
		"to_session_id": "session_ghost", "summary": "x"}))
	o := twice("A", "collab_handoff_offer", fl("s-offer", 5, map[string]any{"to_session_id": bID, "summary": "take it"}))
	d.call("B", "collab_next", map[string]any{"workspace_id": ws})
	acc := twice("B", "collab_handoff_respond", sc("s-accept", map[string]any{"handoff_id": str(o, "handoff.id"), "expected_version": 6, "response": "accept"}))
	bl := str(acc, "task.lease_id")
	twice("B", "collab_task_complete", sc("s-complete", map[string]any{"task_id": "feature", "lease_id": bl, "expected_version": 7,
		"summary": "Feature done", "confidence": "high", "confidence_basis": "tests", "limits": "none"}))
	d.call("B", "collab_task_review", sc("s-review-self", map[string]any{"task_id": "feature", "expected_version": 8, "outcome": "accept", "summary": "mine"}))
	twice("A", "collab_task_review", sc("s-review", map[string]any{"task_id": "feature", "expected_version": 8, "outcome": "accept", "summary": "Looks right"}))
	cl := str(twice("A", "collab_task_claim", sc("s-claim-coord", map[string]any{"task_id": "coord", "expected_version": 1})), "task.lease_id")
	cm := func(key string, version int, extra map[string]any) map[string]any {
		return sc(key, merge(map[string]any{"task_id": "coord", "lease_id": cl, "expected_version": version}, extra))
	}
	o2 := d.call("A", "collab_handoff_offer", cm("s-offer-2", 2, map[string]any{"to_session_id": bID, "summary": "maybe"}))
	twice("A", "collab_task_block", cm("s-block", 3, map[string]any{"blocker": "needs input"}))
	d.call("B", "collab_handoff_respond", sc("s-late", map[string]any{"handoff_id": str(o2, "handoff.id"), "expected_version": 4, "response": "accept"}))
	twice("B", "collab_task_unblock", sc("s-unblock", map[string]any{"task_id": "coord", "expected_version": 4, "note": "answered"}))
	cl = str(d.call("A", "collab_task_claim", sc("s-claim-coord-2", map[string]any{"task_id": "coord", "expected_version": 5})), "task.lease_id")
	o3 := d.call("A", "collab_handoff_offer", cm("s-offer-3", 6, map[string]any{"to_session_id": bID, "summary": "again"}))
	twice("B", "collab_handoff_respond", sc("s-decline", map[string]any{"handoff_id": str(o3, "handoff.id"), "expected_version": 7, "response": "decline"}))
	d.call("A", "collab_handoff_offer", cm("s-offer-4", 7, map[string]any{"to_session_id": bID, "summary": "last"}))
	twice("A", "collab_task_release", cm("s-release", 8, map[string]any{"summary": "letting go"}))
	d.call("A", "collab_task_recover", sc("s-recover", map[string]any{"task_id": "coord", "expected_version": 9, "recovery_note": "not needed"}))
	twice("A", "collab_report_append", sc("s-report", map[string]any{"kind": "observation", "body": "Line\u2029two", "task_id": "feature"}))
	twice("A", "collab_decision_record", sc("s-decide", map[string]any{"topic": "api", "decision": "Keep v1", "authority_scope": "repo", "authority_basis": "owner"}))
	d.call("A", "collab_decision_record", sc("s-decide-bare", map[string]any{"topic": "api", "decision": "Keep v1"}))
	d.call("A", "collab_report_list", map[string]any{"workspace_id": ws})
	d.call("A", "collab_events_since", map[string]any{"workspace_id": ws, "after_sequence": 0, "limit": 500})
	d.call("A", "collab_journal_verify", map[string]any{"workspace_id": ws})
	d.call("A", "collab_anchor_status", map[string]any{"workspace_id": ws})
	n := d.call("A", "collab_next", map[string]any{"workspace_id": ws})
	d.call("A", "collab_cursor_ack", map[string]any{"workspace_id": ws, "anchor": get(n, "events.next_anchor"),
		"expected_cursor_version": num(n, "session.cursor_version")})
	reset := sc("s-reset", map[string]any{"target": map[string]any{"epoch_id": str(a, "workspace.epoch_id"), "sequence": 0,
		"hash": strings.Repeat("0", 64)}, "expected_cursor_version": num(n, "session.cursor_version") + 1, "reason": "replay all"})
	twice("A", "collab_cursor_reset", reset)
	d.call("A", "collab_session_end", map[string]any{"reason": "finished"})
	d.call("B", "collab_session_end", map[string]any{})
	d.call("B", "collab_journal_verify", map[string]any{"workspace_id": ws})
}

// requireEveryToolSucceeded keeps the comparison honest: each of the 32
// tools must have succeeded at least once in the script (recovery only has
// its refusal path here, as no lease can lapse in a short test).
func requireEveryToolSucceeded(t *testing.T, lines []string) {
	t.Helper()
	succeeded := map[string]bool{}
	called := map[string]bool{}
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) >= 4 {
			called[f[1]] = true
			succeeded[f[1]] = succeeded[f[1]] || f[3] == "ok"
		}
	}
	if len(called) != 32 {
		t.Errorf("the script called %d distinct tools, want all 32", len(called))
	}
	for tool := range called {
		if !succeeded[tool] && tool != "collab_task_recover" {
			t.Errorf("%s never succeeded in the script", tool)
		}
	}
}

func merge(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}
