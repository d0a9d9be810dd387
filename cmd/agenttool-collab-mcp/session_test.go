package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agenttool/collab/core/stress"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// startSession starts a credential-bound session on a fresh process and
// returns the process, the session result and the credential file path.
func startSession(t *testing.T, s *sandbox, root, actor string) (*mcptest.Client, map[string]any, string) {
	t.Helper()
	c := s.start()
	r := ok(t, c, "collab_session_start", map[string]any{"root_path": root, "actor": actor})
	file := filepath.Join(filepath.Dir(s.db), "collab-sessions", str(r, "session_file_name"))
	return c, r, file
}

func readCredential(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestSessionStartKeepsItsTokenInAPrivateFileOnly(t *testing.T) {
	s := newSandbox(t)
	c, r, file := startSession(t, s, s.repo("main", nil), "alice")
	cred := readCredential(t, file)
	token, _ := cred["session_token"].(string)
	if len(token) != 43 || cred["format"] != "agenttool.collab/session-file/1" || cred["generation"] != 1.0 {
		t.Fatalf("credential file malformed: %v", cred)
	}
	for path, mode := range map[string]os.FileMode{file: 0o600, filepath.Dir(file): 0o700, s.db: 0o600, filepath.Dir(s.db): 0o700} {
		info, err := os.Stat(path)
		if err != nil || info.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, want %v (%v)", filepath.Base(path), info.Mode().Perm(), mode, err)
		}
	}
	raw, _ := json.Marshal(r)
	if strings.Contains(string(raw), token) || strings.Contains(string(raw), filepath.Dir(file)) {
		t.Fatalf("session start leaked the token or credential directory: %s", raw)
	}
	refused(t, c, "collab_session_start", map[string]any{"root_path": s.root, "actor": "again"}, "session_already_bound")
	refused(t, c, "collab_workspace_open", map[string]any{"root_path": s.root, "actor": "x"}, "session_already_bound")
	c.Close()
	for _, name := range []string{s.db, s.db + "-wal"} {
		if b, err := os.ReadFile(name); err == nil && strings.Contains(string(b), token) {
			t.Fatalf("%s holds the bearer token", filepath.Base(name))
		}
	}
}

func TestResumingFromTheCredentialFileFencesEarlierProcesses(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", nil)
	a, r, file := startSession(t, s, repo, "alice")
	ws := str(r, "workspace.id")
	b := s.start("AGENTOOL_COLLAB_SESSION_FILE=" + file)
	if cred := readCredential(t, file); cred["generation"] != 2.0 {
		t.Fatalf("resume did not move to generation 2: %v", cred)
	}
	if text, announced := b.WaitStderr("session resumed", time.Minute); !announced {
		t.Fatalf("resume not announced: %q", text)
	}
	create := func(c *mcptest.Client, key string) mcptest.Result {
		return call(t, c, "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": key, "title": "t", "work_mode": "coordination"})
	}
	if r := create(a, "from-a"); r.Code() != "session_auth_failed" {
		t.Fatalf("the fenced process could still write: %s", r.Raw)
	}
	if r := create(b, "from-b"); r.IsError {
		t.Fatalf("the resumed process cannot write: %s", r.Raw)
	}
	c := s.start("AGENTOOL_COLLAB_SESSION_FILE=" + file)
	if r := create(b, "from-b-2"); r.Code() != "session_auth_failed" {
		t.Fatalf("a second resume did not fence the first: %s", r.Raw)
	}
	if r := create(c, "from-b"); r.IsError {
		t.Fatalf("the newest process cannot replay the earlier create: %s", r.Raw)
	}
}

func TestOneClientInstanceIsOnePresenceAcrossProcesses(t *testing.T) {
	s := newSandbox(t)
	ws, _ := legacyWorkspace(t, s, 0)
	const n = 6
	clients := make([]*mcptest.Client, n)
	for i := range clients {
		clients[i] = s.start()
	}
	ids := make([]string, n)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func(i int, c *mcptest.Client) {
			defer wg.Done()
			r, err := c.Call("collab_session_join", map[string]any{"workspace_id": ws, "client_instance_id": "laptop-1",
				"actor_label": "alice", "runtime_kind": "codex"})
			if err == nil && !r.IsError {
				ids[i] = str(r.Structured, "session.id")
			}
		}(i, c)
	}
	wg.Wait()
	for _, id := range ids {
		if id == "" || id != ids[0] {
			t.Fatalf("concurrent joins disagree: %v", ids)
		}
	}
	if rows := countRows(t, s.db, "SELECT count(*) FROM sessions"); rows != 1 {
		t.Fatalf("%d presence rows for one client instance", rows)
	}
}

// TestExactlyOneOfEightProcessesWinsEachClaim races eight server
// processes for each task, on each engine: exactly one claim wins, the
// others see version_conflict or task_claimed, and the journal holds one
// task.claimed event per task and verifies.
func TestExactlyOneOfEightProcessesWinsEachClaim(t *testing.T) {
	for _, e := range journalEngines {
		t.Run(e.name, func(t *testing.T) { testOneClaimWins(t, e) })
	}
}

func testOneClaimWins(t *testing.T, e journalEngine) {
	s := newSandbox(t)
	e.setup(t, s)
	repo := s.repo("main", nil)
	// Eight racers at every size (the property is about many at once);
	// COLLAB_STRESS=full repeats the race more often.
	const procs = 8
	rounds := stress.N(t, claimRoundsEnv, claimRounds)
	clients := make([]*mcptest.Client, procs)
	var ws string
	for i := range clients {
		c, r, _ := startSession(t, s, repo, fmt.Sprintf("agent-%d", i))
		clients[i], ws = c, str(r, "workspace.id")
	}
	for round := 0; round < rounds; round++ {
		task := fmt.Sprintf("race-%d", round)
		ok(t, clients[0], "collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": task, "task_id": task,
			"title": "contested", "work_mode": "coordination"})
		codes := make([]string, procs)
		var wg sync.WaitGroup
		for i, c := range clients {
			wg.Add(1)
			go func(i int, c *mcptest.Client) {
				defer wg.Done()
				r, err := c.Call("collab_task_claim", map[string]any{"workspace_id": ws, "task_id": task,
					"idempotency_key": "claim-" + task, "expected_version": 1})
				switch {
				case err != nil:
					codes[i] = "transport: " + err.Error()
				case r.IsError:
					codes[i] = r.Code()
				default:
					codes[i] = "ok"
				}
			}(i, c)
		}
		wg.Wait()
		wins := 0
		for _, code := range codes {
			switch code {
			case "ok":
				wins++
			case "version_conflict", "task_claimed":
			default:
				t.Fatalf("round %d: unexpected outcome %q (all: %v)", round, code, codes)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d winners: %v", round, wins, codes)
		}
	}
	v := ok(t, clients[0], "collab_journal_verify", map[string]any{"workspace_id": ws})
	if v["chain_valid"] != true {
		t.Fatal("journal does not verify after the races")
	}
	if n := countRows(t, s.db, "SELECT count(*) FROM events WHERE type = 'task.claimed'"); n != rounds {
		t.Fatalf("%d task.claimed events for %d rounds", n, rounds)
	}
}
