package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/backend"
)

// registryServer is the server as it was built before the catalog: every
// tool registered with the SDK. It is the yardstick the catalog must match.
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

// TestCatalogAnswersAsTheSDKRegistryWould compares, byte for byte, what a
// client receives from the catalog and from the SDK's own tool registry:
// the tools/list result of each profile, a successful call, a refused call
// and a call to a tool the server does not have.
func TestCatalogAnswersAsTheSDKRegistryWould(t *testing.T) {
	ctx := context.Background()
	for _, profile := range []string{"", "core", "collab_next,collab_cursor_ack,collab_wait"} {
		p := profileProcess(t, profile)
		viaCatalog, viaRegistry := clientOf(t, NewServer("test", p)), clientOf(t, registryServer(p))
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
		mustSame("tools/list", la, lb)
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
			mustSame("call "+call.Name, ra, rb)
		}
	}
}

// BenchmarkServerReady is what a host waits for after the process starts,
// without the process: build the server, complete initialize, list the
// tools. Registering tools with the SDK (re-encoding every schema) made
// this about twice as costly.
func BenchmarkServerReady(b *testing.B) {
	p := profileProcess(b, "")
	ctx := context.Background()
	for b.Loop() {
		ct, stt := sdk.NewInMemoryTransports()
		ss, err := NewServer("bench", p).Connect(ctx, stt, nil)
		if err != nil {
			b.Fatal(err)
		}
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			b.Fatal(err)
		}
		cs.Close()
		ss.Wait()
	}
}
