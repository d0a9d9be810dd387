package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// anyRefusal as an expected code accepts any coded refusal except
// internal_error.
const anyRefusal = "*"

// outputProbe drives tools and keeps everything that left the servers —
// every response line and, at the end, every stderr — together with which
// tools were seen succeeding and refusing.
type outputProbe struct {
	t        *testing.T
	clients  []*mcptest.Client
	outputs  []string
	succeeds map[string]bool
	refuses  map[string]bool
}

func newOutputProbe(t *testing.T) *outputProbe {
	return &outputProbe{t: t, succeeds: map[string]bool{}, refuses: map[string]bool{}}
}

// watch adds a server whose stderr is examined at the end.
func (p *outputProbe) watch(c *mcptest.Client) *mcptest.Client {
	p.clients = append(p.clients, c)
	return c
}

// keep records text that left a server another way (a startup refusal).
func (p *outputProbe) keep(text string) { p.outputs = append(p.outputs, text) }

// ok calls a tool that must succeed and returns its result.
func (p *outputProbe) ok(c *mcptest.Client, tool string, args map[string]any) map[string]any {
	p.t.Helper()
	return p.expect(c, tool, args, "")
}

// expect calls a tool that must succeed (code "") or be refused with code
// (anyRefusal: any coded refusal but internal_error).
func (p *outputProbe) expect(c *mcptest.Client, tool string, args map[string]any, code string) map[string]any {
	p.t.Helper()
	r := call(p.t, c, tool, args)
	p.outputs = append(p.outputs, string(r.Raw))
	switch {
	case code == "" && (r.IsError || r.RPCError != nil):
		p.t.Fatalf("%s failed: %s", tool, r.Raw)
	case code == "":
		p.succeeds[tool] = true
	case r.Code() == "" || r.Code() == "internal_error" || (code != anyRefusal && r.Code() != code):
		p.t.Fatalf("%s: want refusal %s, got %s", tool, code, r.Raw)
	default:
		p.refuses[tool] = true
	}
	return r.Structured
}

// requireCoverage fails unless every served tool was seen both succeeding
// and refusing.
func (p *outputProbe) requireCoverage() {
	p.t.Helper()
	var missing []string
	for _, tool := range mcp.Tools() {
		if !p.succeeds[tool.Name] {
			missing = append(missing, tool.Name+" (success)")
		}
		if !p.refuses[tool.Name] {
			missing = append(missing, tool.Name+" (refusal)")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		p.t.Errorf("paths never driven: %s", strings.Join(missing, ", "))
	}
}

// requireAbsent fails for every secret found in any output or stderr.
func (p *outputProbe) requireAbsent(secrets map[string]string) {
	p.t.Helper()
	texts := append([]string(nil), p.outputs...)
	for _, c := range p.clients {
		c.Close()
		texts = append(texts, c.Stderr())
	}
	for name, secret := range secrets {
		if secret == "" {
			p.t.Fatalf("secret %s is empty; the probe would prove nothing", name)
		}
		for _, text := range texts {
			if strings.Contains(text, secret) {
				p.t.Errorf("%s leaked in: %.400s", name, text)
				break
			}
		}
	}
}
