package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/backend"
)

// TestProcessesSharingOneStoreServeConcurrentCalls is what serving many
// clients from one OS process looks like: eight Processes (one per client,
// each with its own bound session) share one Store, and two goroutines per
// Process call tools on it at once, as pipelined requests would. Run under
// -race it proves the MCP face holds no unguarded shared state: every call
// succeeds and every write lands exactly once.
func TestProcessesSharingOneStoreServeConcurrentCalls(t *testing.T) {
	const clients, callers, steps = 8, 2, 4
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: filepath.Join(t.TempDir(), "state", "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tools := map[string]Tool{}
	for _, tool := range Tools() {
		tools[tool.Name] = tool
	}
	repo := t.TempDir()
	call := func(p *Process, name string, args map[string]any) (map[string]any, error) {
		raw, _ := json.Marshal(args)
		res, err := p.call(ctx, tools[name], raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if res.IsError {
			return nil, fmt.Errorf("%s refused: %s", name, res.Content[0].(*sdk.TextContent).Text)
		}
		var out map[string]any
		err = json.Unmarshal(res.StructuredContent.(json.RawMessage), &out)
		return out, err
	}
	errs := make(chan error, clients*callers+clients)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var workspace string
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := NewProcess(ProcessConfig{Store: st})
			started, err := call(p, "collab_session_start", map[string]any{"root_path": repo, "actor": fmt.Sprintf("client-%d", c)})
			if err != nil {
				errs <- err
				return
			}
			ws, _ := started["workspace"].(map[string]any)["id"].(string)
			mu.Lock()
			workspace = ws
			mu.Unlock()
			var callersDone sync.WaitGroup
			for k := range callers {
				callersDone.Add(1)
				go func() {
					defer callersDone.Done()
					for n := range steps {
						key := fmt.Sprintf("c%d-k%d-n%d", c, k, n)
						for _, step := range []struct {
							tool string
							args map[string]any
						}{
							{"collab_task_create", map[string]any{"workspace_id": ws, "idempotency_key": "task-" + key, "title": key, "work_mode": "coordination"}},
							{"collab_report_append", map[string]any{"workspace_id": ws, "idempotency_key": "report-" + key, "kind": "observation", "body": key}},
							{"collab_next", map[string]any{"workspace_id": ws, "event_limit": 5}},
							{"collab_workspace_status", map[string]any{"workspace_id": ws}},
							{"collab_task_list", map[string]any{"workspace_id": ws}},
						} {
							if _, err := call(p, step.tool, step.args); err != nil {
								errs <- fmt.Errorf("client %d caller %d: %w", c, k, err)
								return
							}
						}
					}
				}()
			}
			callersDone.Wait()
			if _, err := call(p, "collab_session_end", map[string]any{}); err != nil {
				errs <- fmt.Errorf("client %d: %w", c, err)
			}
		}()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(5 * time.Minute):
		// A bound on failure only: a hang must fail, not stall the suite.
		t.Fatal("concurrent calls on processes sharing one store did not finish in 5 minutes")
	}
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}
	tasks, err := st.ListTasks(ctx, workspace, "")
	if err != nil || len(tasks) != clients*callers*steps {
		t.Fatalf("%d tasks (%v), want %d", len(tasks), err, clients*callers*steps)
	}
	if ok, err := st.VerifyJournal(ctx, workspace); err != nil || !ok {
		t.Fatalf("journal after concurrent calls: %v %v", ok, err)
	}
}
