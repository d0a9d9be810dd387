package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/backend"
)

// registryServer is the server as it was built on the SDK: every tool
// registered with the SDK's own registry. It is the yardstick the
// dispatcher's answers must match.
func registryServer(p *Process) *sdk.Server {
	srv := sdk.NewServer(&sdk.Implementation{Name: ServerName, Version: "test"}, &sdk.ServerOptions{
		Instructions: Instructions,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	tools, err := p.Profile()
	if err != nil {
		tools = Tools()
	}
	known := map[string]bool{}
	for _, t := range tools {
		known[t.Name] = true
	}
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if call, ok := req.(*sdk.CallToolRequest); ok && method == "tools/call" && !known[call.Params.Name] {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("Tool %s not found", call.Params.Name)}
			}
			return next(ctx, method, req)
		}
	})
	for _, t := range tools {
		srv.AddTool(&sdk.Tool{Name: t.Name, Title: t.Title, Description: t.Description,
			InputSchema: t.Input.topLevel(), Annotations: t.Class.annotations()},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				return p.call(ctx, t, req.Params.Arguments)
			})
	}
	return srv
}

// clientOf connects an SDK client to an SDK server in process.
func clientOf(tb testing.TB, srv *sdk.Server) *sdk.ClientSession {
	tb.Helper()
	ctx := context.Background()
	ct, stt := sdk.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, stt, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return cs
}

func profileProcess(tb testing.TB, profile string) *Process {
	tb.Helper()
	st, err := backend.Open(context.Background(), backend.Options{Path: backend.MemoryPath})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	return NewProcess(ProcessConfig{Store: st, Getenv: func(k string) string {
		if k == ToolsEnv {
			return profile
		}
		return ""
	}})
}

// TestDispatcherAnswersAsTheSDKRegistryWould compares, byte for byte, what
// a client receives from the dispatcher and from the SDK's own tool
// registry: the tools of each profile's tools/list (the registry sorts
// them by name, the dispatcher lists them in catalogue order), a
// successful call, a refused call and a call to a tool the server does
// not have.
func TestDispatcherAnswersAsTheSDKRegistryWould(t *testing.T) {
	ctx := context.Background()
	for _, profile := range []string{"", "core", "collab_next,collab_cursor_ack,collab_wait"} {
		p := profileProcess(t, profile)
		viaCatalog, viaRegistry := serveInMemory(t, p), clientOf(t, registryServer(p))
		mustSame := func(what string, a, b any) {
			t.Helper()
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Fatalf("profile %q, %s:\ncatalog  %s\nregistry %s", profile, what, ja, jb)
			}
		}
		la, err := viaCatalog.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		lb, err := viaRegistry.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		byName := func(a, b *sdk.Tool) int { return strings.Compare(a.Name, b.Name) }
		slices.SortFunc(la.Tools, byName)
		mustSame("tools/list", la.Tools, lb.Tools)
		for _, call := range []*sdk.CallToolParams{
			{Name: "collab_next", Arguments: map[string]any{"workspace_id": "w"}},         // refused: no session
			{Name: "collab_next", Arguments: map[string]any{"workspace_id": 7}},           // invalid arguments
			{Name: "collab_no_such_tool", Arguments: map[string]any{"workspace_id": "w"}}, // unknown
		} {
			ra, ea := viaCatalog.CallTool(ctx, call)
			rb, eb := viaRegistry.CallTool(ctx, call)
			if (ea == nil) != (eb == nil) || (ea != nil && ea.Error() != eb.Error()) {
				t.Fatalf("profile %q, call %s: errors %v / %v", profile, call.Name, ea, eb)
			}
			if ra != nil && rb != nil {
				// The SDK's registry adds its own _meta and resultType
				// for clients of the newest protocols.
				mustSame("call "+call.Name, []any{ra.Content, ra.StructuredContent, ra.IsError},
					[]any{rb.Content, rb.StructuredContent, rb.IsError})
			} else {
				mustSame("call "+call.Name, ra, rb)
			}
		}
	}
}

// BenchmarkServerReady is what a host waits for after the process starts,
// without the process: serve a connection, complete initialize, list the
// tools.
func BenchmarkServerReady(b *testing.B) {
	p := profileProcess(b, "")
	ctx := context.Background()
	for b.Loop() {
		ct, stt := sdk.NewInMemoryTransports()
		conn, err := stt.Connect(ctx)
		if err != nil {
			b.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- p.Dispatcher("bench").Serve(ctx, conn, nil) }()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
		cs.Close()
		<-done
	}
}

// serveInMemory serves p with its dispatcher over an in-memory connection
// and returns an SDK client connected to it.
func serveInMemory(tb testing.TB, p *Process) *sdk.ClientSession {
	tb.Helper()
	ctx := context.Background()
	ct, stt := sdk.NewInMemoryTransports()
	conn, err := stt.Connect(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.Dispatcher("test").Serve(ctx, conn, nil) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		cs.Close()
		if err := <-done; err != nil {
			tb.Errorf("serve: %v", err)
		}
	})
	return cs
}
