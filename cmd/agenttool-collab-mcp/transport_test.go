package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const initializeLine = `{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// exchange writes lines to a fresh server process as its whole stdin,
// waits for it to exit and returns every answer by raw id (an id seen
// twice is a failure), the answers with "id": null in order, and the
// exit code. Requests are answered before exit, so nothing here waits on
// time.
func exchange(t *testing.T, argv []string, env []string, lines ...string) (byID map[string]map[string]any, nullID []map[string]any, code int) {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.Stdin = strings.NewReader(strings.Join(lines, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("run server: %v", err)
		}
	}
	byID = map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		var msg map[string]any
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&msg); err != nil {
			t.Fatalf("stdout carried a non-JSON line %q", line)
		}
		if e, ok := msg["error"].(map[string]any); ok && e["code"] == json.Number("0") {
			t.Fatalf("an answer carries error code 0: %s", line)
		}
		raw, _ := json.Marshal(msg["id"])
		if string(raw) == "null" {
			nullID = append(nullID, msg)
			continue
		}
		if byID[string(raw)] != nil {
			t.Fatalf("id %s answered twice", raw)
		}
		byID[string(raw)] = msg
	}
	return byID, nullID, cmd.ProcessState.ExitCode()
}

func errorCode(msg map[string]any) string {
	e, _ := msg["error"].(map[string]any)
	if e == nil {
		return ""
	}
	return fmt.Sprint(e["code"])
}

// badLineKinds are the malformed lines a client can send; each must be
// answered with the JSON-RPC error shown and leave the session serving.
var badLineKinds = []struct {
	name, line, code string
}{
	{"not JSON", "not json", "-32700"},
	{"JSON scalar", "42", "-32600"},
	{"empty array", "[]", "-32600"},
	{"batch", `[{"jsonrpc":"2.0","id":"b1","method":"ping"},{"jsonrpc":"2.0","id":"b2","method":"ping"}]`, "-32600"},
	{"UTF-8 BOM", "\ufeff" + `{"jsonrpc":"2.0","id":"bom","method":"ping"}`, "-32700"},
	{"raw control character in a string", "{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"pi\x01ng\"}", "-32700"},
	{"trailing garbage", `{"jsonrpc":"2.0","id":"g","method":"ping"} garbage`, "-32700"},
	{"truncated line", `{"jsonrpc":"2.0","id":"tr","method":"tools/ca`, "-32700"},
	{"1,000 levels of nesting", strings.Repeat("[", 1000) + strings.Repeat("]", 1000), "-32600"},
	{"line over the frame cap", `{"jsonrpc":"2.0","id":"big","method":"ping","params":{"pad":"` + strings.Repeat("x", 9<<20) + `"}}`, "-32600"},
}

func TestEveryBadLineIsAnsweredAndTheSessionGoesOn(t *testing.T) {
	s := newSandbox(t)
	for i, bad := range badLineKinds {
		t.Run(bad.name, func(t *testing.T) {
			byID, nullID, code := exchange(t, []string{os.Args[0]}, s.env(), initializeLine, bad.line,
				fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i), `{"jsonrpc":"2.0","id":"list","method":"tools/list"}`)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if len(nullID) != 1 || errorCode(nullID[0]) != bad.code {
				t.Fatalf("bad line answered %v, want one error %s with id null", nullID, bad.code)
			}
			if byID[fmt.Sprint(i)]["result"] == nil || byID[`"list"`]["result"] == nil || byID[`"init"`]["result"] == nil {
				t.Fatalf("requests around the bad line were not all answered: %v", byID)
			}
			if len(byID) != 3 {
				t.Fatalf("answers %v, want exactly initialize, ping and tools/list", byID)
			}
		})
	}
}

func TestThirtyPipelinedWritesThenAGarbageLineAreAllAnswered(t *testing.T) {
	s := newSandbox(t)
	repo := s.repo("main", nil)
	c := s.start()
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "setup"}), "workspace.id")
	c.Close()
	lines := []string{initializeLine}
	for i := range 30 {
		lines = append(lines, taskCreateLine(i, ws, fmt.Sprintf("pipelined-%d", i)))
	}
	lines = append(lines, "}{ garbage")
	byID, nullID, code := exchange(t, []string{os.Args[0]}, s.env(), lines...)
	if code != 0 || len(nullID) != 1 || errorCode(nullID[0]) != "-32700" {
		t.Fatalf("exit %d, answers to the garbage line: %v", code, nullID)
	}
	for i := range 30 {
		if r := byID[fmt.Sprint(i)]; r == nil || r["result"] == nil {
			t.Fatalf("write %d unanswered or failed: %v", i, r)
		}
	}
	if n := countTasks(t, s, ws); n != 30 {
		t.Fatalf("%d tasks committed, 30 answered", n)
	}
}

func taskCreateLine(id int, ws, key string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"collab_task_create","arguments":{"workspace_id":%q,"actor":"a","idempotency_key":%q,"title":"t %s"}}}`, id, ws, key, key)
}

func countTasks(t *testing.T, s *sandbox, ws string) int {
	t.Helper()
	c := s.start()
	defer c.Close()
	tasks, _ := ok(t, c, "collab_task_list", map[string]any{"workspace_id": ws})["tasks"].([]any)
	return len(tasks)
}

// TestSixteenProcessesAnswerEveryRequestBeforeExit gives 16 servers at
// once a file of 15 requests each as stdin (so stdin ends at once) and
// requires all 240 answered and every answered write committed, no more.
func TestSixteenProcessesAnswerEveryRequestBeforeExit(t *testing.T) {
	const procs = 16
	s := newSandbox(t)
	repo := s.repo("main", nil)
	c := s.start()
	ws := str(ok(t, c, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "setup"}), "workspace.id")
	c.Close()
	var wg sync.WaitGroup
	answered := make([]int, procs)
	writesOK := make([]int, procs)
	failures := make([]string, procs)
	for p := range procs {
		lines := []string{initializeLine, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`{"jsonrpc":"2.0","id":100,"method":"ping"}`, `{"jsonrpc":"2.0","id":101,"method":"tools/list"}`}
		for i := range 10 {
			lines = append(lines, taskCreateLine(i, ws, fmt.Sprintf("p%d-%d", p, i)))
		}
		lines = append(lines, `{"jsonrpc":"2.0","id":102,"method":"tools/list"}`, `{"jsonrpc":"2.0","id":103,"method":"ping"}`)
		file := filepath.Join(s.root, fmt.Sprintf("stdin-%d.jsonl", p))
		if err := os.WriteFile(file, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err := os.Open(file)
			if err != nil {
				failures[p] = err.Error()
				return
			}
			defer in.Close()
			cmd := exec.Command(os.Args[0])
			cmd.Env, cmd.Stdin = s.env(), in
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				failures[p] = fmt.Sprintf("exit: %v: %s", err, stderr.String())
				return
			}
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				var msg map[string]any
				if json.Unmarshal([]byte(line), &msg) != nil || msg["id"] == nil {
					failures[p] = fmt.Sprintf("unexpected line %q", line)
					continue
				}
				answered[p]++
				if id, isNum := msg["id"].(float64); isNum && id < 100 && msg["result"] != nil {
					if r := msg["result"].(map[string]any); r["isError"] != true {
						writesOK[p]++
					}
				}
			}
		}()
	}
	wg.Wait()
	total, writes := 0, 0
	for p := range procs {
		if failures[p] != "" {
			t.Errorf("process %d: %s", p, failures[p])
		}
		total += answered[p]
		writes += writesOK[p]
	}
	if total != procs*15 {
		t.Fatalf("%d of %d requests answered (per process: %v)", total, procs*15, answered)
	}
	if n := countTasks(t, s, ws); n != writes {
		t.Fatalf("%d tasks committed but %d writes answered ok", n, writes)
	}
}

func TestABrokenStdinExitsNonZero(t *testing.T) {
	s := newSandbox(t)
	dir, err := os.Open(t.TempDir()) // reading a directory fails with EISDIR
	if err != nil {
		t.Fatal(err)
	}
	defer dir.Close()
	cmd := exec.Command(os.Args[0])
	cmd.Env, cmd.Stdin = s.env(), dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if cmd.ProcessState.ExitCode() == 0 || !strings.Contains(stderr.String(), "MCP transport failed") {
		t.Fatalf("exit %d (%v), stderr %q", cmd.ProcessState.ExitCode(), err, stderr.String())
	}
}
