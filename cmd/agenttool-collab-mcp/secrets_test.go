package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestNoSecretReachesAnyResultOrStderr drives every tool down a success
// path and a refusal path — in two bound sessions and a legacy process —
// plus the credential failures (a non-private credential directory, and
// startup resumes from a corrupt, non-private, forged or revoked file).
// No bearer token, stored token hash, credential file path or credential
// directory may appear in any response or on any server's stderr.
func TestNoSecretReachesAnyResultOrStderr(t *testing.T) {
	w := newSecretWorld(t)
	w.drivePresence()
	w.driveWorkspace()
	w.driveTaskLifecycle()
	w.driveRecovery()
	w.driveReports()
	w.driveIndependence()
	w.driveJournal()
	w.driveCredentialFailures()
	w.p.requireCoverage()
	w.p.requireAbsent(w.secrets())
}

// secretWorld is two bound sessions (alice, bob) and one legacy process
// in one workspace, with the probe that records what they emit.
type secretWorld struct {
	t              *testing.T
	s              *sandbox
	p              *outputProbe
	alice, bob     *mcptest.Client
	legacy         *mcptest.Client
	ws, aliceID    string
	bobID          string
	aliceCred      string
	bobCred        string
	tokens, hashes map[string]string
}

func newSecretWorld(t *testing.T) *secretWorld {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"src/a.go": "package a\n"})
	w := &secretWorld{t: t, s: s, p: newOutputProbe(t), tokens: map[string]string{}, hashes: map[string]string{}}
	ledger := filepath.Join(s.root, "anchors.json")
	os.WriteFile(ledger, []byte(`{"protocol":"agenttool.collab-zerone-ledger/0.1","anchors":[]}`), 0o600)
	w.alice = w.p.watch(s.start("AGENTOOL_COLLAB_ANCHOR_LEDGER=" + ledger))
	w.bob = w.p.watch(s.start())
	w.legacy = w.p.watch(s.start())
	a := w.p.ok(w.alice, "collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
	b := w.p.ok(w.bob, "collab_session_start", map[string]any{"root_path": repo, "actor": "bob"})
	w.ws, w.aliceID, w.bobID = str(a, "workspace.id"), str(a, "session.id"), str(b, "session.id")
	w.aliceCred, w.bobCred = w.credPath(a), w.credPath(b)
	w.remember("alice", w.aliceCred)
	w.remember("bob", w.bobCred)
	w.p.expect(w.alice, "collab_session_start", map[string]any{"root_path": repo, "actor": "again"}, "session_already_bound")
	w.p.ok(w.legacy, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "carol"})
	w.p.expect(w.alice, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "x"}, "session_already_bound")
	return w
}

func (w *secretWorld) credPath(started map[string]any) string {
	return filepath.Join(filepath.Dir(w.s.db), "collab-sessions", str(started, "session_file_name"))
}

// remember reads a credential file's token and derives its stored hash.
func (w *secretWorld) remember(who, path string) {
	cred, err := credfile.Read(path)
	if err != nil {
		w.t.Fatal(err)
	}
	w.tokens[who], w.hashes[who] = cred.Token, credfile.TokenHash(cred.Token)
}

// secrets names everything that must never leave a server.
func (w *secretWorld) secrets() map[string]string {
	out := map[string]string{
		"credential directory": filepath.Dir(w.aliceCred),
		"alice's credential":   w.aliceCred,
		"bob's credential":     w.bobCred,
	}
	for who, tok := range w.tokens {
		out[who+"'s token"] = tok
	}
	for who, hash := range w.hashes {
		out[who+" token hash"] = hash
	}
	return out
}

// args returns a fresh argument map in the world's workspace.
func (w *secretWorld) args(kv ...any) map[string]any {
	m := map[string]any{"workspace_id": w.ws}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func (w *secretWorld) drivePresence() {
	p := w.p
	join := w.args("client_instance_id", "alice-laptop", "actor_label", "alice", "runtime_kind", "codex")
	pres := p.ok(w.alice, "collab_session_join", join)
	join["actor_label"] = "someone else"
	p.expect(w.alice, "collab_session_join", join, "session_instance_conflict")
	p.ok(w.alice, "collab_session_list", w.args())
	p.expect(w.alice, "collab_session_list", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	id, v := str(pres, "session.id"), num(pres, "session.version")
	hb := p.ok(w.alice, "collab_session_heartbeat", map[string]any{"session_id": id, "idempotency_key": "hb1", "expected_version": v})
	p.expect(w.alice, "collab_session_heartbeat", map[string]any{"session_id": id, "idempotency_key": "hb2", "expected_version": v},
		"session_version_conflict")
	p.ok(w.alice, "collab_session_leave", map[string]any{"session_id": id, "idempotency_key": "lv1", "expected_version": num(hb, "session.version")})
	p.expect(w.alice, "collab_session_leave", map[string]any{"session_id": "presence_missing", "idempotency_key": "lv2", "expected_version": 1},
		"session_not_found")
}

func (w *secretWorld) driveWorkspace() {
	w.p.ok(w.alice, "collab_workspace_status", w.args())
	w.p.expect(w.alice, "collab_workspace_status", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	w.p.ok(w.alice, "collab_task_list", w.args())
	w.p.expect(w.alice, "collab_task_list", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	w.p.expect(w.legacy, "collab_session_end", map[string]any{}, "session_not_bound")
	w.p.ok(w.alice, "collab_wait", w.args("timeout_ms", 0))
	w.p.expect(w.alice, "collab_wait", map[string]any{"workspace_id": "ws_missing", "timeout_ms": 0}, "session_workspace_mismatch")
}

// claim creates a coordination task as alice and claims it.
func (w *secretWorld) claim(id, policy string) map[string]any {
	w.p.ok(w.alice, "collab_task_create", w.args("task_id", id, "idempotency_key", "create-"+id, "title", "task "+id,
		"work_mode", "coordination", "completion_policy", policy))
	return w.p.ok(w.alice, "collab_task_claim", w.args("task_id", id, "idempotency_key", "claim-"+id, "expected_version", 1))
}

// lease returns the lease arguments for a task result, with a new key.
func (w *secretWorld) lease(task map[string]any, key string, kv ...any) map[string]any {
	m := w.args("task_id", str(task, "task.id"), "lease_id", str(task, "task.lease_id"), "idempotency_key", key,
		"expected_version", num(task, "task.version"))
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func (w *secretWorld) driveTaskLifecycle() {
	p := w.p
	t1 := w.claim("t1", "accepted")
	p.expect(w.alice, "collab_task_create", w.args("task_id", "t1", "idempotency_key", "dup", "title", "again",
		"work_mode", "coordination"), "task_exists")
	p.ok(w.alice, "collab_task_get", w.args("task_id", "t1"))
	p.expect(w.alice, "collab_task_get", w.args("task_id", "missing"), "task_not_found")
	p.expect(w.bob, "collab_task_claim", w.args("task_id", "t1", "idempotency_key", "steal", "expected_version", 1), "version_conflict")
	t1 = p.ok(w.alice, "collab_task_renew", w.lease(t1, "renew"))
	p.expect(w.bob, "collab_task_renew", w.lease(t1, "bob-renew"), "lease_not_holder")
	t1 = p.ok(w.alice, "collab_task_progress", w.lease(t1, "progress", "message", "halfway"))
	p.expect(w.bob, "collab_task_progress", w.lease(t1, "bob-progress", "message", "mine"), "lease_not_holder")
	t1 = p.ok(w.alice, "collab_artifact_attach", w.lease(t1, "attach", "kind", "file", "uri", "src/a.go"))
	p.expect(w.alice, "collab_artifact_attach", w.lease(t1, "attach-bad", "kind", "file", "uri", "x", "sha256", strings.Repeat("z", 64)),
		"invalid_sha256")
	offer := p.ok(w.alice, "collab_handoff_offer", w.lease(t1, "offer", "to_session_id", w.bobID, "summary", "yours?"))
	p.expect(w.alice, "collab_handoff_offer", w.lease(offer, "offer-self", "to_session_id", w.aliceID, "summary", "me"), anyRefusal)
	p.ok(w.bob, "collab_handoff_respond", w.args("handoff_id", str(offer, "handoff.id"), "idempotency_key", "decline",
		"expected_version", num(offer, "task.version"), "response", "decline"))
	p.expect(w.bob, "collab_handoff_respond", w.args("handoff_id", "handoff_missing", "idempotency_key", "nope",
		"expected_version", 1, "response", "accept"), "handoff_not_found")
	t1 = p.ok(w.alice, "collab_task_get", w.args("task_id", "t1"))
	done := p.ok(w.alice, "collab_task_complete", w.lease(t1, "complete", "summary", "done"))
	p.expect(w.alice, "collab_task_complete", w.lease(t1, "complete-again", "summary", "done"), anyRefusal)
	review := w.args("task_id", "t1", "idempotency_key", "review", "expected_version", num(done, "task.version"),
		"outcome", "accept", "summary", "looks right")
	p.expect(w.alice, "collab_task_review", review, "self_review_forbidden")
	p.ok(w.bob, "collab_task_review", review)
	w.driveBlockAndRelease()
}

func (w *secretWorld) driveBlockAndRelease() {
	p := w.p
	t2 := w.claim("t2", "reported")
	p.ok(w.alice, "collab_task_block", w.lease(t2, "block", "blocker", "waiting on review"))
	p.expect(w.alice, "collab_task_block", w.lease(t2, "block-again", "blocker", "still"), anyRefusal)
	blocked := num(t2, "task.version") + 1
	unblock := w.args("task_id", "t2", "idempotency_key", "unblock", "expected_version", blocked)
	p.ok(w.alice, "collab_task_unblock", unblock)
	unblock["idempotency_key"], unblock["expected_version"] = "unblock-again", blocked+1
	p.expect(w.alice, "collab_task_unblock", unblock, "task_not_blocked")
	t2 = p.ok(w.alice, "collab_task_claim", w.args("task_id", "t2", "idempotency_key", "reclaim", "expected_version", blocked+1))
	p.ok(w.alice, "collab_task_release", w.lease(t2, "release", "summary", "not now"))
	p.expect(w.alice, "collab_task_release", w.lease(t2, "release-again"), anyRefusal)
}

// driveRecovery expires alice's lease by moving its deadline into the
// past in the database, then lets bob take the task over.
func (w *secretWorld) driveRecovery() {
	t3 := w.claim("t3", "reported")
	recover := w.args("task_id", "t3", "idempotency_key", "recover", "expected_version", num(t3, "task.version"),
		"recovery_note", "alice went quiet", "action", "takeover")
	w.p.expect(w.bob, "collab_task_recover", recover, "recovery_not_required")
	execSQL(w.t, w.s.db, `UPDATE tasks SET lease_expires_at = '2000-01-01T00:00:00.000Z' WHERE id = 't3'`)
	recover["idempotency_key"] = "recover-2"
	r := w.p.ok(w.bob, "collab_task_recover", recover)
	w.p.ok(w.bob, "collab_task_release", w.lease(r, "bob-release"))
}

func (w *secretWorld) driveReports() {
	p := w.p
	p.ok(w.alice, "collab_report_append", w.args("idempotency_key", "r1", "kind", "observation", "body", "saw it"))
	p.expect(w.alice, "collab_report_append", w.args("idempotency_key", "r2", "kind", "observation", "body", "re",
		"relation", "supports", "target_report_id", "report_missing"), anyRefusal)
	p.ok(w.alice, "collab_report_list", w.args())
	p.expect(w.alice, "collab_report_list", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	p.ok(w.alice, "collab_decision_record", w.args("idempotency_key", "d1", "topic", "db", "decision", "sqlite",
		"authority_scope", "storage", "authority_basis", "team agreement"))
	p.expect(w.alice, "collab_decision_record", w.args("idempotency_key", "d2", "topic", "db", "decision", "sqlite"),
		"decision_authority_required")
	p.ok(w.legacy, "collab_decision_record", w.args("actor", "carol", "idempotency_key", "d3", "topic", "t", "decision", "d"))
	toBob := p.ok(w.alice, "collab_report_append", w.args("idempotency_key", "r3", "kind", "observation",
		"body", "for bob", "to_session_id", w.bobID))
	id := str(toBob, "report.id")
	p.ok(w.bob, "collab_report_mark", w.args("report_id", id, "state", "handled", "note", "done"))
	p.expect(w.alice, "collab_report_mark", w.args("report_id", id, "state", "handled"), "delivery_not_addressed")
	p.ok(w.alice, "collab_report_receipts", w.args("report_ids", []any{id}))
	p.expect(w.alice, "collab_report_receipts", map[string]any{"workspace_id": "ws_missing", "report_ids": []any{id}}, anyRefusal)
}

func (w *secretWorld) driveIndependence() {
	p := w.p
	claim := p.ok(w.bob, "collab_independence_claim", w.args("topic", "limits", "note", "checking blind"))
	id := str(claim, "claim.id")
	p.expect(w.bob, "collab_independence_claim", w.args(), "invalid_independence_subject")
	p.ok(w.alice, "collab_independence_list", w.args())
	p.expect(w.alice, "collab_independence_list", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	p.expect(w.alice, "collab_independence_release", w.args("claim_id", id, "reason", "not mine"), "independence_not_claimant")
	p.ok(w.bob, "collab_independence_release", w.args("claim_id", id, "reason", "done looking"))
}

func (w *secretWorld) driveJournal() {
	p := w.p
	next := p.ok(w.alice, "collab_next", w.args("event_limit", 5))
	anchor, _ := get(next, "events.next_anchor").(map[string]any)
	forged := map[string]any{"epoch_id": anchor["epoch_id"], "sequence": anchor["sequence"], "hash": strings.Repeat("a", 64)}
	p.expect(w.alice, "collab_next", w.args("known_cursor", forged), "cursor_reset_required")
	version := num(next, "session.cursor_version")
	p.expect(w.alice, "collab_cursor_ack", w.args("anchor", anchor, "expected_cursor_version", version+7), "cursor_version_conflict")
	acked := p.ok(w.alice, "collab_cursor_ack", w.args("anchor", anchor, "expected_cursor_version", version))
	origin := map[string]any{"epoch_id": anchor["epoch_id"], "sequence": 0, "hash": genesis}
	p.expect(w.alice, "collab_cursor_reset", w.args("idempotency_key", "reset-bad", "target", origin,
		"expected_cursor_version", version, "reason", "replay"), "cursor_version_conflict")
	p.ok(w.alice, "collab_cursor_reset", w.args("idempotency_key", "reset", "target", origin,
		"expected_cursor_version", num(acked, "session.cursor_version"), "reason", "replay"))
	p.ok(w.alice, "collab_events_since", w.args("limit", 3))
	p.expect(w.alice, "collab_events_since", w.args("after_sequence", 1_000_000), "invalid_cursor")
	p.ok(w.alice, "collab_journal_verify", w.args())
	p.expect(w.alice, "collab_journal_verify", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	p.ok(w.alice, "collab_anchor_status", w.args())
	p.expect(w.alice, "collab_anchor_status", map[string]any{"workspace_id": "ws_missing"}, "workspace_not_found")
	p.ok(w.alice, "collab_search", w.args("query", "collab-sessions credential token session_file", "limit", 50))
	p.ok(w.legacy, "collab_search", w.args("query", `"session`, "kinds", []any{"session", "workspace"}, "limit", 50))
	p.ok(w.bob, "collab_search", w.args("query", "tmp OR sqlite OR collab", "order", "recent", "limit", 50))
	p.expect(w.legacy, "collab_search", map[string]any{"workspace_id": "ws_missing", "query": "x"}, "workspace_not_found")
	p.expect(w.alice, "collab_search", w.args("query", "x", "cursor", "bogus"), "invalid_cursor")
}

// driveCredentialFailures makes the credential directory non-private
// under a bound process, ends both sessions, and starts servers on bad
// credential files; the refusals may name the operation, never the path.
func (w *secretWorld) driveCredentialFailures() {
	dir := filepath.Dir(w.aliceCred)
	next := w.p.ok(w.alice, "collab_next", w.args("event_limit", 50))
	w.withMode(dir, 0o755, func() {
		w.p.expect(w.alice, "collab_cursor_ack", w.args("anchor", get(next, "events.next_anchor"),
			"expected_cursor_version", num(next, "session.cursor_version")), "session_directory_not_private")
	})
	w.p.ok(w.bob, "collab_session_end", w.args("reason", "done"))
	w.startRefused("AGENTOOL_COLLAB_SESSION_FILE="+w.bobCred+".missing", "session_file_read_failed")
	w.writeCredential("truncated.json", []byte(`{"format":"agenttool.collab/session-file/1","session_id":"`+w.aliceID+
		`","session_token":"`+w.tokens["alice"]+`","generation":`), 0o600)
	w.startRefused("AGENTOOL_COLLAB_SESSION_FILE="+filepath.Join(dir, "truncated.json"), "session_file_read_failed")
	aliceFile, _ := os.ReadFile(w.aliceCred)
	w.writeCredential("loose.json", aliceFile, 0o644)
	w.startRefused("AGENTOOL_COLLAB_SESSION_FILE="+filepath.Join(dir, "loose.json"), "session_file_not_private")
	forged := strings.Replace(string(aliceFile), w.tokens["alice"], strings.Repeat("A", 43), 1)
	w.writeCredential("forged.json", []byte(forged), 0o600)
	w.startRefused("AGENTOOL_COLLAB_SESSION_FILE="+filepath.Join(dir, "forged.json"), "session_auth_failed")
	w.writeCredential("revoked.json", []byte(strings.Replace(string(aliceFile), w.aliceID, w.bobID, 1)), 0o600)
	w.startRefused("AGENTOOL_COLLAB_SESSION_FILE="+filepath.Join(dir, "revoked.json"), "session_auth_failed")
	w.withMode(dir, 0o755, func() {
		w.p.expect(w.alice, "collab_session_end", w.args("reason", "leaving"), "session_directory_not_private")
	})
	for i, h := range storedTokenHashes(w.t, w.s.db) {
		w.hashes[fmt.Sprintf("stored #%d", i)] = h
	}
}

// startRefused starts a server that must refuse to start with code.
func (w *secretWorld) startRefused(env, code string) {
	w.t.Helper()
	c, err := mcptest.Start([]string{os.Args[0]}, w.s.env(env))
	if err == nil {
		c.Close()
		w.t.Fatalf("a server started with %s", env)
	}
	if !strings.Contains(err.Error(), "("+code+")") {
		w.t.Fatalf("startup with %s: want %s, got %v", env, code, err)
	}
	w.p.keep(err.Error())
}

func (w *secretWorld) writeCredential(name string, data []byte, mode os.FileMode) {
	path := filepath.Join(filepath.Dir(w.aliceCred), name)
	if err := os.WriteFile(path, data, mode); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		w.t.Fatal(err)
	}
}

// withMode runs fn with path's mode temporarily set to mode.
func (w *secretWorld) withMode(path string, mode os.FileMode, fn func()) {
	if err := os.Chmod(path, mode); err != nil {
		w.t.Fatal(err)
	}
	defer os.Chmod(path, 0o700)
	fn()
}

// storedTokenHashes returns every stored token hash, including the ones
// that replaced the tokens of ended sessions.
func storedTokenHashes(t *testing.T, db string) []string {
	t.Helper()
	rows, err := openDB(t, db).Query(`SELECT token_hash FROM coordination_sessions`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var all []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			t.Fatal(err)
		}
		all = append(all, h)
	}
	return all
}
