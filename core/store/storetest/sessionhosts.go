package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/agenttool/collab/core/store"
)

// sessionHostsReplacedPerSession: a store that never held a host record
// reads none, a refused write leaves none, a second record of a session
// replaces the first field for field, and the records of one workspace
// are read without another's, by session id.
func sessionHostsReplacedPerSession(t *testing.T, e store.Engine) {
	defer e.Close()
	createWorkspace(t, e, "ws_h")
	createWorkspace(t, e, "ws_other")
	hostsOf := func(ws string) []store.SessionHost {
		var got []store.SessionHost
		read(t, e, func(ctx context.Context, tx store.Tx) error {
			var err error
			got, err = tx.SessionHostsOf(ctx, ws)
			return err
		})
		return got
	}
	if got := hostsOf("ws_h"); got == nil || len(got) != 0 {
		t.Errorf("a store without host records read %v", got)
	}
	refusal := errors.New("refused")
	err := e.Write(context.Background(), func(tx store.Tx) error {
		if err := tx.PutSessionHost(context.Background(), store.SessionHost{SessionID: "s0", WorkspaceID: "ws_h",
			Kind: store.HostStdio, RecordedAt: "2026-01-01T00:00:00.000Z"}); err != nil {
			return err
		}
		return refusal
	})
	if !errors.Is(err, refusal) {
		t.Fatalf("write returned %v", err)
	}
	if got := hostsOf("ws_h"); len(got) != 0 {
		t.Errorf("a refused write left %v", got)
	}
	first := store.SessionHost{SessionID: "s2", WorkspaceID: "ws_h", Kind: store.HostStdio, Client: "claude-code",
		ClientVersion: "2.1.0", Machine: "box", PID: 4242, ProcessStart: 1 << 40, BootID: "boot-1",
		RecordedAt: "2026-01-01T00:00:01.000Z"}
	later := store.SessionHost{SessionID: "s2", WorkspaceID: "ws_h", Kind: store.HostHTTP, Principal: "alice",
		RecordedAt: "2026-01-01T00:00:02.000Z"}
	other := store.SessionHost{SessionID: "s1", WorkspaceID: "ws_other", Kind: store.HostPersonCLI, Client: "collab",
		RecordedAt: "2026-01-01T00:00:03.000Z"}
	third := store.SessionHost{SessionID: "s1a", WorkspaceID: "ws_h", Kind: store.HostPersonWeb,
		RecordedAt: "2026-01-01T00:00:04.000Z"}
	for _, h := range []store.SessionHost{first, other, third} {
		write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.PutSessionHost(ctx, h) })
	}
	if got := hostsOf("ws_h"); !reflect.DeepEqual(got, []store.SessionHost{third, first}) {
		t.Errorf("records of ws_h: %+v", got)
	}
	write(t, e, func(ctx context.Context, tx store.Tx) error { return tx.PutSessionHost(ctx, later) })
	if got := hostsOf("ws_h"); !reflect.DeepEqual(got, []store.SessionHost{third, later}) {
		t.Errorf("after a second record of s2: %+v", got)
	}
	if got := hostsOf("ws_other"); !reflect.DeepEqual(got, []store.SessionHost{other}) {
		t.Errorf("records of ws_other: %+v", got)
	}
}
