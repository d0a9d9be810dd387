package main

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// searchCLI runs the search subcommand as its own OS process on the
// sandbox's database and returns its stdout and exit status.
func (s *sandbox) searchCLI(args ...string) (string, int) {
	s.t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"search"}, args...)...)
	cmd.Env = s.env()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return out.String() + errOut.String(), exit.ExitCode()
	}
	if err != nil {
		s.t.Fatal(err)
	}
	return out.String(), 0
}

// searchHits runs the CLI with --json and returns the hits.
func (s *sandbox) searchHits(args ...string) []map[string]any {
	s.t.Helper()
	out, code := s.searchCLI(append(args, "--json")...)
	if code != 0 {
		s.t.Fatalf("search %v exited %d: %s", args, code, out)
	}
	var res struct {
		Hits []map[string]any `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		s.t.Fatalf("search output is not JSON: %v\n%s", err, out)
	}
	return res.Hits
}

func TestSearchCommandUsage(t *testing.T) {
	s := newSandbox(t)
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"-h"}, 0},
		{[]string{"--help"}, 0},
		{[]string{"--bogus", "x"}, 2},
		{[]string{}, 2},
		{[]string{"words", "--limit"}, 2},
	} {
		if out, code := s.searchCLI(c.args...); code != c.code {
			t.Errorf("search %v exited %d, want %d: %s", c.args, code, c.code, out)
		}
	}
	if out, code := s.searchCLI("--db", s.db, "x"); code != 1 || !strings.Contains(out, "✖") {
		t.Errorf("a missing database exits %d: %s", code, out)
	}
}

func TestSearchFindsWhatAnotherProcessWrote(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	writer := s.start()
	ws := str(ok(t, writer, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "ann"}), "workspace.id")
	ok(t, writer, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "ann", "idempotency_key": "t1",
		"title": "quokka migration plan", "description": "Move the burrow; see note: \"phase 1\""})
	if hits := s.searchHits("quokka"); len(hits) != 1 || hits[0]["kind"] != "task" {
		t.Fatalf("first search: %v", hits)
	}
	info, err := os.Stat(s.db + ".search")
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("sidecar: %v %v", info, err)
	}
	ok(t, writer, "collab_decision_record", map[string]any{"workspace_id": ws, "actor": "bob", "idempotency_key": "d1",
		"topic": "Quokka habitat", "decision": "Keep the burrow under src/", "rationale": "fewer moves"})
	hits := s.searchHits("quokka", "--workspace", ws, "--kind", "decision")
	if len(hits) != 1 || hits[0]["actor"] != "bob" {
		t.Fatalf("catch-up after the other process wrote: %v", hits)
	}
	// A person's raw text, quotes and a trailing dash included.
	if hits := s.searchHits(`note: "phase 1 -`); len(hits) != 1 {
		t.Errorf("raw text: %v", hits)
	}
	// Another server searches the same sidecar through the MCP tool.
	reader := s.start()
	res := ok(t, reader, "collab_search", map[string]any{"workspace_id": ws, "query": "burrow", "limit": 1})
	first, _ := res["hits"].([]any)
	cursor, _ := res["next_cursor"].(string)
	if len(first) != 1 || cursor == "" {
		t.Fatalf("first page: %v", res)
	}
	res = ok(t, reader, "collab_search", map[string]any{"workspace_id": ws, "query": "burrow", "limit": 1, "cursor": cursor})
	second, _ := res["hits"].([]any)
	if len(second) != 1 || res["next_cursor"] != nil || get(first[0], "sequence") == get(second[0], "sequence") {
		t.Fatalf("second page: %v", res)
	}
	// Deleting the sidecar only costs a rebuild.
	if err := os.Remove(s.db + ".search"); err != nil {
		t.Fatal(err)
	}
	if hits := s.searchHits("burrow"); len(hits) != 2 {
		t.Errorf("after deleting the sidecar: %v", hits)
	}
	if out, code := s.searchCLI("--rebuild"); code != 0 || !strings.Contains(out, "rebuilt") {
		t.Errorf("--rebuild exited %d: %s", code, out)
	}
	out, code := s.searchCLI("quokka", "--limit", "1")
	if code != 0 || !strings.Contains(out, "1 hit for \"quokka\"") || !strings.Contains(out, "more: add --cursor") {
		t.Errorf("plain output exited %d:\n%s", code, out)
	}
}

// TestReferenceOpensASearchedDatabase proves the sidecar never changes
// what the reference sees: the reference opens, writes and verifies a
// database this server has searched, and this server's search then finds
// what the reference wrote.
func TestReferenceOpensASearchedDatabase(t *testing.T) {
	refCmd := os.Getenv("COLLAB_REFERENCE_CMD")
	if refCmd == "" {
		t.Skip("COLLAB_REFERENCE_CMD is not set; set it to the reference server command (e.g. /work/ref/reference-mcp) to run this check")
	}
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	ours := s.start()
	ws := str(ok(t, ours, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "ann"}), "workspace.id")
	ok(t, ours, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "ann", "idempotency_key": "t1", "title": "numbat survey"})
	ok(t, ours, "collab_search", map[string]any{"workspace_id": ws, "query": "numbat"})
	if hits := s.searchHits("numbat"); len(hits) != 1 {
		t.Fatalf("our search: %v", hits)
	}
	ref, err := mcptest.Start([]string{refCmd}, s.env())
	if err != nil {
		t.Fatalf("start the reference: %v", err)
	}
	defer ref.Close()
	ok(t, ref, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "ref"})
	ok(t, ref, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "ref", "idempotency_key": "r1",
		"title": "wombat census from the reference", "description": "count every wombat"})
	ok(t, ref, "collab_decision_record", map[string]any{"workspace_id": ws, "actor": "ref", "idempotency_key": "r2",
		"topic": "Wombat tally", "decision": "Publish weekly"})
	if v := ok(t, ref, "collab_journal_verify", map[string]any{"workspace_id": ws}); v["chain_valid"] != true {
		t.Fatalf("the reference cannot verify the searched database: %v", v)
	}
	ref.Close()
	hits := s.searchHits("wombat")
	kinds := map[any]bool{}
	for _, h := range hits {
		kinds[h["kind"]] = true
		if h["actor"] != "ref" {
			t.Errorf("hit not written by the reference: %v", h)
		}
	}
	if !kinds["task"] || !kinds["decision"] {
		t.Errorf("our search did not find what the reference wrote: %v", hits)
	}
	res := ok(t, ours, "collab_search", map[string]any{"workspace_id": ws, "query": "wombat census"})
	if got, _ := res["hits"].([]any); len(got) != 1 {
		t.Errorf("the running server did not catch up with the reference: %v", res)
	}
}

// TestConcurrentServersShareTheSidecar runs three servers that each write
// and search at the same time. Every search finds at least the searcher's
// own committed writes, writes never fail, and at the end every server
// finds all of them and the sidecar passes SQLite's integrity check.
func TestConcurrentServersShareTheSidecar(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	first := s.start()
	ws := str(ok(t, first, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "p0"}), "workspace.id")
	servers := []*mcptest.Client{first, s.start(), s.start()}
	const rounds = 8
	errs := make(chan error, len(servers))
	for p, c := range servers {
		go func(p int, c *mcptest.Client) {
			errs <- writeAndSearch(c, ws, p, rounds)
		}(p, c)
	}
	for range servers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for p, c := range servers {
		res := ok(t, c, "collab_search", map[string]any{"workspace_id": ws, "query": "ostrich", "limit": 50})
		if hits, _ := res["hits"].([]any); len(hits) != len(servers)*rounds {
			t.Errorf("server %d finds %d of %d writes", p, len(hits), len(servers)*rounds)
		}
	}
	db, err := sql.Open("sqlite", "file:"+s.db+".search?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var check string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Errorf("sidecar integrity: %q %v", check, err)
	}
}

// writeAndSearch creates rounds tasks as process p, searching after each
// write; every search must find all of p's own writes so far.
func writeAndSearch(c *mcptest.Client, ws string, p, rounds int) error {
	for i := 1; i <= rounds; i++ {
		r, err := c.Call("collab_task_create", map[string]any{"workspace_id": ws, "actor": fmt.Sprintf("p%d", p),
			"idempotency_key": fmt.Sprintf("p%d-%d", p, i), "title": fmt.Sprintf("ostrich sighting %d by p%d", i, p)})
		if err != nil || r.IsError {
			return fmt.Errorf("p%d write %d: %v %s", p, i, err, r.Raw)
		}
		r, err = c.Call("collab_search", map[string]any{"workspace_id": ws, "query": "ostrich", "actor": fmt.Sprintf("p%d", p), "limit": 50})
		if err != nil || r.IsError {
			return fmt.Errorf("p%d search %d: %v %s", p, i, err, r.Raw)
		}
		if hits, _ := r.Structured["hits"].([]any); len(hits) != i {
			return fmt.Errorf("p%d after %d writes finds %d of its own", p, i, len(hits))
		}
	}
	return nil
}

// TestSearchCommandFindsWhatAPersonMeans is issue 38's search, end to end:
// agents write a decision about rate limits and two tasks on them, and a
// person's `search rate limit` (two bare words) finds all three, the
// decision first, with snippets of text only.
func TestSearchCommandFindsWhatAPersonMeans(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", map[string]string{"a.txt": "a\n"})
	agent := s.start()
	ws := str(ok(t, agent, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "ann"}), "workspace.id")
	ok(t, agent, "collab_decision_record", map[string]any{"workspace_id": ws, "actor": "ann", "idempotency_key": "d1",
		"topic": "rate limits: per token", "decision": "Every token gets a bucket of its own"})
	for i, title := range []string{"Document the rate limits", "Add a rate limiter", "Tidy the changelog"} {
		ok(t, agent, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "ann",
			"idempotency_key": fmt.Sprintf("t%d", i), "title": title})
	}
	hits := s.searchHits("rate", "limit")
	var kinds []string
	for _, h := range hits {
		kinds = append(kinds, fmt.Sprint(h["kind"], ": ", h["title"]))
	}
	if len(hits) != 3 || hits[0]["kind"] != "decision" {
		t.Fatalf("search rate limit: want the decision first and both tasks, got %q", kinds)
	}
	out, code := s.searchCLI("rate", "limi")
	if code != 0 || !strings.Contains(out, "3 hits") {
		t.Errorf("the start of a word should be enough (exit %d):\n%s", code, out)
	}
}
