package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// postToBob makes alice (the sender) post a report addressed to bob and
// returns its id.
func (w *wakePair) postToBob(t *testing.T, key, body string) string {
	t.Helper()
	r := ok(t, w.alice, "collab_report_append", map[string]any{"workspace_id": w.ws, "idempotency_key": key,
		"kind": "observation", "body": body, "to_session_id": w.bobID})
	return str(r, "report.id")
}

// receiptOf reads, as alice, the receipts of one report.
func (w *wakePair) receiptOf(t *testing.T, reportID string) map[string]any {
	t.Helper()
	r := ok(t, w.alice, "collab_report_receipts", map[string]any{"workspace_id": w.ws, "report_ids": []any{reportID}})
	list, _ := r["receipts"].([]any)
	if len(list) != 1 {
		t.Fatalf("receipts of %s: %v", reportID, r)
	}
	return list[0].(map[string]any)
}

// channels lists the channels a receipt says the report was announced
// through.
func channels(rec map[string]any) []string {
	var out []string
	list, _ := rec["announced"].([]any)
	for _, a := range list {
		out = append(out, str(a, "channel"))
	}
	return out
}

// TestSenderSeesAnnouncedReadAndHandledReceipts runs the whole delivery
// story across processes: alice posts a report to bob; bob's collab_wait
// and his hook (peek --hook, its own process) announce it; bob reads and
// acknowledges it with collab_next and collab_cursor_ack; bob marks it
// handled. Alice, in her own server process, sees all three receipts, and
// announcing never moved bob's cursor.
func TestSenderSeesAnnouncedReadAndHandledReceipts(t *testing.T) {
	w := newWakePair(t)
	id := w.postToBob(t, "r1", "the build is green again")
	rec := w.receiptOf(t, id)
	if len(channels(rec)) != 0 || rec["read"] != false || rec["mark"] != nil || str(rec, "to_session_id") != w.bobID {
		t.Fatalf("before anything reached bob: %v", rec)
	}
	cursor, version := w.bobCursor(t)

	woke := ok(t, w.bob, "collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 5000})
	if str(woke, "reason") != "for_you" {
		t.Fatalf("bob's wait: %v", woke)
	}
	code, out, errs := peekHook(t, w.s, w.bobFile, `{"hook_event_name":"UserPromptSubmit"}`)
	if code != 0 || out == "" {
		t.Fatalf("bob's hook: exit %d, %q %q", code, out, errs)
	}
	rec = w.receiptOf(t, id)
	if got := channels(rec); len(got) != 2 || !contains(got, "wait") || !contains(got, "hook") {
		t.Fatalf("announced through %v, want wait and hook: %v", got, rec)
	}
	if rec["read"] != false {
		t.Fatalf("announcing marked the report read: %v", rec)
	}
	if c, v := w.bobCursor(t); c != cursor || v != version {
		t.Fatalf("announcing moved bob's cursor: %+v v%d -> %+v v%d", cursor, version, c, v)
	}

	next := ok(t, w.bob, "collab_next", map[string]any{"workspace_id": w.ws})
	ok(t, w.bob, "collab_cursor_ack", map[string]any{"workspace_id": w.ws, "anchor": get(next, "events.next_anchor"),
		"expected_cursor_version": num(next, "session.cursor_version")})
	rec = w.receiptOf(t, id)
	if rec["read"] != true || num(rec, "recipient_cursor") < num(rec, "sequence") {
		t.Fatalf("after bob acknowledged: %v", rec)
	}

	mark := ok(t, w.bob, "collab_report_mark", map[string]any{"workspace_id": w.ws, "report_id": id, "state": "handled",
		"note": "rebased on it"})
	if str(mark, "state") != "handled" || mark["replayed"] != false {
		t.Fatalf("mark: %v", mark)
	}
	rec = w.receiptOf(t, id)
	if str(rec, "mark.state") != "handled" || str(rec, "mark.note") != "rebased on it" || rec["read"] != true ||
		len(channels(rec)) != 2 {
		t.Fatalf("alice's view of all three receipts: %v", rec)
	}
	// Without ids, alice gets the receipts of what she addressed.
	mine := ok(t, w.alice, "collab_report_receipts", map[string]any{"workspace_id": w.ws})
	if list, _ := mine["receipts"].([]any); len(list) != 1 || str(list[0], "id") != id {
		t.Fatalf("alice's addressed reports: %v", mine)
	}
}

// TestAnnouncingTwiceKeepsOneReceiptPerChannel: the same report announced
// again through the same channel (a second hook run, a second wait, a
// monitor) keeps the first receipt, and each channel is listed once.
func TestAnnouncingTwiceKeepsOneReceiptPerChannel(t *testing.T) {
	w := newWakePair(t)
	_, lines := startWatch(t, w.s, w.bobFile)
	id := w.postToBob(t, "r1", "please look at the flaky test")
	select {
	case <-lines:
	case <-time.After(wakeDeadline):
		t.Fatal("no monitor line for the report")
	}
	for range 2 {
		if code, out, _ := peekHook(t, w.s, w.bobFile, `{"hook_event_name":"UserPromptSubmit"}`); code != 0 || out == "" {
			t.Fatalf("hook: exit %d, %q", code, out)
		}
		ok(t, w.bob, "collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 2000})
	}
	// The monitor records after printing; wait for its receipt, not for time.
	deadline := time.Now().Add(wakeDeadline)
	var rec map[string]any
	for {
		rec = w.receiptOf(t, id)
		if contains(channels(rec), "monitor") || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	got := channels(rec)
	if len(got) != 3 || !contains(got, "hook") || !contains(got, "wait") || !contains(got, "monitor") {
		t.Fatalf("announced through %v, want hook, monitor and wait once each: %v", got, rec)
	}
	first := rec["announced"]
	peekHook(t, w.s, w.bobFile, `{"hook_event_name":"Stop"}`)
	if again := w.receiptOf(t, id)["announced"]; !sameJSON(first, again) {
		t.Fatalf("a repeated announcement changed the receipts: %v -> %v", first, again)
	}
	// The same mark twice is one mark; the other mark is refused.
	ok(t, w.bob, "collab_report_mark", map[string]any{"workspace_id": w.ws, "report_id": id, "state": "declined"})
	if m := ok(t, w.bob, "collab_report_mark", map[string]any{"workspace_id": w.ws, "report_id": id, "state": "declined"}); m["replayed"] != true {
		t.Fatalf("the same mark again: %v", m)
	}
	refused(t, w.bob, "collab_report_mark", map[string]any{"workspace_id": w.ws, "report_id": id, "state": "handled"}, "delivery_mark_conflict")
	if str(w.receiptOf(t, id), "mark.state") != "declined" {
		t.Fatal("a refused mark changed the stored one")
	}
}

// TestBadReceiptInputIsRefusedWithNothingWritten: marking what is not
// addressed to you, marking while unbound, an unknown state, both or
// neither subject, an overlong note, and an announcement through an
// unknown channel or of someone else's report are each refused, and the
// database is unchanged (no receipt, no event, no cursor move).
func TestBadReceiptInputIsRefusedWithNothingWritten(t *testing.T) {
	w := newWakePair(t)
	toBob := w.postToBob(t, "r1", "for bob")
	toNobody := str(ok(t, w.alice, "collab_report_append", map[string]any{"workspace_id": w.ws, "idempotency_key": "r2",
		"kind": "observation", "body": "for everyone"}), "report.id")
	before := dbBytes(t, w.s.db)
	unbound := w.s.start()
	long := make([]byte, 2001)
	for i := range long {
		long[i] = 'x'
	}
	cases := []struct {
		name   string
		client *mcptest.Client
		args   map[string]any
		code   string
	}{
		{"a report addressed to nobody", w.bob, map[string]any{"report_id": toNobody, "state": "handled"}, "delivery_not_addressed"},
		{"someone else's report", w.alice, map[string]any{"report_id": toBob, "state": "handled"}, "delivery_not_addressed"},
		{"a report that does not exist", w.bob, map[string]any{"report_id": "rep_missing", "state": "handled"}, "delivery_not_addressed"},
		{"unbound", unbound, map[string]any{"report_id": toBob, "state": "handled"}, "session_not_bound"},
		{"both subjects", w.bob, map[string]any{"report_id": toBob, "handoff_id": "h1", "state": "handled"}, "invalid_delivery_mark"},
		{"no subject", w.bob, map[string]any{"state": "handled"}, "invalid_delivery_mark"},
		{"an overlong note", w.bob, map[string]any{"report_id": toBob, "state": "handled", "note": string(long)}, ""},
		{"an unknown state", w.bob, map[string]any{"report_id": toBob, "state": "ignored"}, ""},
	}
	for _, c := range cases {
		args := map[string]any{"workspace_id": w.ws}
		for k, v := range c.args {
			args[k] = v
		}
		if c.code != "" {
			refused(t, c.client, "collab_report_mark", args, c.code)
			continue
		}
		if r := call(t, c.client, "collab_report_mark", args); !r.IsError {
			t.Errorf("%s: accepted: %v", c.name, r.Structured)
		}
	}
	st, err := backend.Open(context.Background(), backend.Options{Path: w.s.db})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cred := credentialOf(t, w.bobFile)
	for _, bad := range []struct {
		channel string
		sub     store.Subject
	}{
		{"email", store.Subject{Kind: store.SubjectReport, ID: toBob}},
		{store.ChannelHook, store.Subject{Kind: store.SubjectReport, ID: toNobody}},
		{store.ChannelHook, store.Subject{Kind: "task", ID: toBob}},
		{store.ChannelHook, store.Subject{Kind: store.SubjectReport, ID: " " + toBob}},
	} {
		// A valid subject first: a refusal must undo it too.
		subs := []store.Subject{{Kind: store.SubjectReport, ID: toBob}, bad.sub}
		if _, err := st.RecordAnnouncement(context.Background(), cred, bad.channel, subs); err == nil {
			t.Errorf("announcement %v through %q accepted", bad.sub, bad.channel)
		}
	}
	st.Close()
	if after := dbBytes(t, w.s.db); after != before {
		t.Fatal("a refused receipt changed the database")
	}
	if rec := w.receiptOf(t, toBob); len(channels(rec)) != 0 || rec["mark"] != nil {
		t.Fatalf("refusals left receipts: %v", rec)
	}
}

// TestReferenceOpensVerifiesAndContinuesADatabaseWithReceipts records
// every kind of receipt, then has the reference 0.4.0 open that file,
// verify its journal, write to it and read bob's report; this server then
// still shows the receipts and verifies the journal the reference
// continued.
func TestReferenceOpensVerifiesAndContinuesADatabaseWithReceipts(t *testing.T) {
	refCmd := os.Getenv("COLLAB_REFERENCE_CMD")
	if refCmd == "" {
		t.Skip("COLLAB_REFERENCE_CMD is not set; set it to the reference server command (e.g. /tmp/compatref/refrun.sh) to run this check")
	}
	w := newWakePair(t)
	id := w.postToBob(t, "r1", "receipts ahead")
	w.offerToBob(t, "t1")
	ok(t, w.bob, "collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 2000})
	peekHook(t, w.s, w.bobFile, `{"hook_event_name":"UserPromptSubmit"}`)
	ok(t, w.bob, "collab_report_mark", map[string]any{"workspace_id": w.ws, "report_id": id, "state": "handled"})
	if len(channels(w.receiptOf(t, id))) != 2 {
		t.Fatalf("receipts not recorded: %v", w.receiptOf(t, id))
	}
	w.alice.Close()
	w.bob.Close()
	ref, err := mcptest.Start([]string{refCmd}, w.s.env())
	if err != nil {
		t.Fatalf("start the reference: %v", err)
	}
	defer ref.Close()
	if v := ok(t, ref, "collab_journal_verify", map[string]any{"workspace_id": w.ws}); v["chain_valid"] != true {
		t.Fatalf("the reference cannot verify a database with receipts: %v", v)
	}
	ok(t, ref, "collab_task_create", map[string]any{"workspace_id": w.ws, "actor": "ref", "idempotency_key": "ref1", "title": "after receipts"})
	list := ok(t, ref, "collab_report_list", map[string]any{"workspace_id": w.ws})
	if reports, _ := list["reports"].([]any); len(reports) != 1 || str(reports[0], "id") != id {
		t.Fatalf("the reference's report list: %v", list)
	}
	if v := ok(t, ref, "collab_journal_verify", map[string]any{"workspace_id": w.ws}); v["chain_valid"] != true {
		t.Fatalf("the reference's continued journal: %v", v)
	}
	ref.Close()
	ours := w.s.start()
	if v := ok(t, ours, "collab_journal_verify", map[string]any{"workspace_id": w.ws}); v["chain_valid"] != true {
		t.Fatalf("our verify after the reference wrote: %v", v)
	}
	r := ok(t, ours, "collab_report_receipts", map[string]any{"workspace_id": w.ws, "report_ids": []any{id}})
	if list, _ := r["receipts"].([]any); len(list) != 1 || str(list[0], "mark.state") != "handled" || len(channels(list[0].(map[string]any))) != 2 {
		t.Fatalf("receipts after the reference wrote: %v", r)
	}
}

// peekHook runs `peek --hook claude` for a credential file in its own
// process, with the hook's JSON on stdin.
func peekHook(t *testing.T, s *sandbox, file, input string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "peek", "--session-file", file, "--hook", "claude")
	cmd.Env = s.env()
	cmd.Stdin = strings.NewReader(input)
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("peek --hook: %v (%s)", err, errb.String())
	}
	return cmd.ProcessState.ExitCode(), out.String(), errb.String()
}

func contains(list []string, s string) bool { return slices.Contains(list, s) }

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// credentialOf reads a session's credential file.
func credentialOf(t *testing.T, file string) store.Credential {
	t.Helper()
	c, err := credfile.Read(file)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dbBytes is what a refused receipt must leave as it was: every event,
// every session row (cursors included) and the delivery table, if any,
// read from the file.
func dbBytes(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	queries := []string{
		"SELECT workspace_id || ':' || sequence || ':' || hash FROM events ORDER BY workspace_id, sequence",
		"SELECT id || ':' || cursor_sequence || ':' || cursor_version || ':' || last_seen_at FROM coordination_sessions ORDER BY id",
		"SELECT name FROM sqlite_master ORDER BY name",
	}
	var tables int
	db.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'delivery_receipts'").Scan(&tables)
	if tables == 1 {
		queries = append(queries, "SELECT session_id || subject_id || kind || channel || recorded_at FROM delivery_receipts ORDER BY 1")
	}
	for _, q := range queries {
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for rows.Next() {
			var s string
			rows.Scan(&s)
			b.WriteString(s + "\n")
		}
		rows.Close()
	}
	return b.String()
}

// TestPeopleSeeReceiptsInTheWebViewAndTheCLI: the receipts of a report
// that was announced, read and handled show in a real browser on the web
// view's reports page and in `reports` (text and --json), each a
// process of its own; a report addressed to no one shows none.
func TestPeopleSeeReceiptsInTheWebViewAndTheCLI(t *testing.T) {
	chromiumPath(t)
	w := newWakePair(t)
	id := w.postToBob(t, "r1", "cache keys changed")
	ok(t, w.alice, "collab_report_append", map[string]any{"workspace_id": w.ws, "idempotency_key": "r2",
		"kind": "observation", "body": "for everyone"})
	ok(t, w.bob, "collab_wait", map[string]any{"workspace_id": w.ws, "timeout_ms": 2000})
	next := ok(t, w.bob, "collab_next", map[string]any{"workspace_id": w.ws})
	ok(t, w.bob, "collab_cursor_ack", map[string]any{"workspace_id": w.ws, "anchor": get(next, "events.next_anchor"),
		"expected_cursor_version": num(next, "session.cursor_version")})
	ok(t, w.bob, "collab_report_mark", map[string]any{"workspace_id": w.ws, "report_id": id, "state": "declined", "note": "<b>not mine</b>"})

	srv := startWeb(t, w.s, w.s.db)
	b := newBrowser(t)
	b.open(t, srv.url+"/w/"+w.ws+"/reports")
	var lines []string
	b.eval(t, `Array.from(document.querySelectorAll(".report .delivery")).map(p => p.innerText)`, &lines)
	if len(lines) != 1 || lines[0] != "delivery: announced (wait) · read · declined <b>not mine</b>" {
		t.Fatalf("the reports page's delivery lines: %q", lines)
	}
	var bold int
	b.eval(t, `document.querySelectorAll(".delivery b").length`, &bold)
	if bold != 0 {
		t.Fatal("the page rendered the note as markup")
	}
	b.requireClean(t)

	out, errs, code := runCLI(t, filepath.Dir(filepath.Dir(w.s.db)), "reports", "--db", w.s.db, "--workspace", w.ws)
	if code != 0 || !strings.Contains(out, "    delivery: announced (wait) · read · declined: <b>not mine</b>") ||
		strings.Count(out, "delivery:") != 1 {
		t.Fatalf("reports exited %d: %s\n%s", code, out, errs)
	}
	out, errs, code = runCLI(t, filepath.Dir(filepath.Dir(w.s.db)), "reports", "--db", w.s.db, "--workspace", w.ws, "--json")
	var parsed struct {
		Receipts map[string]store.DeliveryReceipts `json:"receipts"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &parsed) != nil || len(parsed.Receipts) != 1 ||
		parsed.Receipts[id].Mark == nil || parsed.Receipts[id].Mark.State != "declined" || !parsed.Receipts[id].Read {
		t.Fatalf("reports --json exited %d: %s\n%s", code, out, errs)
	}
}

// TestChannelPushRecordsTheHandoffsAnnouncement: a handoff offered to bob
// and pushed to his server's client as a claude/channel notification is
// recorded as announced through "channel", and alice reads that receipt
// by the handoff's id; bob's cursor stays where it was.
func TestChannelPushRecordsTheHandoffsAnnouncement(t *testing.T) {
	w := newChannelPair(t, channelOn)
	cursor, version := w.bobCursor(t)
	w.offerToBob(t, "t1")
	if _, meta := w.nextChannel(t, w.bob); meta["task_id"] != "t1" {
		t.Fatalf("notice %v", meta)
	}
	db, err := sql.Open("sqlite", "file:"+w.s.db+"?mode=ro&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	var handoff string
	err = db.QueryRow("SELECT id FROM handoffs WHERE task_id = 't1'").Scan(&handoff)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The receipt is written right after the notification was sent; wait
	// for it, bounded.
	deadline := time.Now().Add(wakeDeadline)
	var rec map[string]any
	for {
		r := ok(t, w.alice, "collab_report_receipts", map[string]any{"workspace_id": w.ws, "handoff_ids": []any{handoff}})
		list, _ := r["receipts"].([]any)
		if len(list) != 1 {
			t.Fatalf("receipts %v", r)
		}
		rec = list[0].(map[string]any)
		if len(channels(rec)) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if got := channels(rec); len(got) != 1 || got[0] != "channel" || str(rec, "subject_kind") != "handoff" || rec["read"] != false {
		t.Fatalf("the handoff's receipts: %v", rec)
	}
	if c, v := w.bobCursor(t); c != cursor || v != version {
		t.Fatalf("the channel's receipt moved bob's cursor: %+v v%d -> %+v v%d", cursor, version, c, v)
	}
}
