package mcp

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

func TestWaitReturnsEarlyWhenTheCallIsCancelled(t *testing.T) {
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: backend.MemoryPath})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	opened, err := st.OpenWorkspace(ctx, store.OpenWorkspaceInput{RootPath: t.TempDir(), Actor: "a", RepositoryKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	p := NewProcess(ProcessConfig{Store: st})
	call, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := handleWait(call, p, Args{"workspace_id": opened.Workspace.ID, "actor": "b", "timeout_ms": int64(WaitMaxMillis)})
		done <- err
	}()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled wait returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a cancelled wait kept blocking")
	}
}
