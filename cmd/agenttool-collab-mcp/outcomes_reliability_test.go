package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// raceRefusals are the refusals concurrent sessions legitimately cause one
// another: someone else moved the task, lease, offer or cursor first. Any
// other refusal in a well-formed workload is a failure.
var raceRefusals = map[string]bool{
	"version_conflict":         true,
	"task_claimed":             true,
	"task_completed":           true,
	"task_blocked":             true,
	"lease_not_holder":         true,
	"lease_not_active":         true,
	"handoff_pending":          true,
	"handoff_resolved":         true,
	"handoff_expired":          true,
	"handoff_source_changed":   true,
	"task_not_pending_review":  true,
	"cursor_version_conflict":  true,
	"session_version_conflict": true,
	"path_scope_conflict":      true,
}

// outcomeBook counts what every call returned and keeps the failures: a
// transport or JSON-RPC error, an input rejection, an internal error, any
// text mentioning a locked or busy database, and unexpected refusals.
type outcomeBook struct {
	mu       sync.Mutex
	counts   map[string]int
	failures []string
}

func newOutcomeBook() *outcomeBook { return &outcomeBook{counts: map[string]int{}} }

// record classifies one call and reports whether it succeeded.
func (b *outcomeBook) record(tool string, r mcptest.Result, err error) bool {
	outcome, failure := classify(r, err)
	b.mu.Lock()
	defer b.mu.Unlock()
	b.counts[tool+" "+outcome]++
	if failure != "" {
		b.failures = append(b.failures, fmt.Sprintf("%s: %s", tool, failure))
	}
	return outcome == "ok"
}

func classify(r mcptest.Result, err error) (outcome, failure string) {
	lower := strings.ToLower(string(r.Raw))
	switch {
	case err != nil:
		return "transport", err.Error()
	case strings.Contains(lower, "database is locked") || strings.Contains(lower, "sqlite_busy") ||
		strings.Contains(lower, "database is busy"):
		return "locked", string(r.Raw)
	case r.RPCError != nil:
		return "rpc_error", r.RPCError.Message
	case r.IsError && r.Structured == nil:
		return "rejected", r.Text
	case r.IsError && !raceRefusals[r.Code()]:
		return r.Code(), string(r.Raw)
	case r.IsError:
		return r.Code(), ""
	}
	return "ok", ""
}

// summary renders the counts, one "tool outcome: n" per line.
func (b *outcomeBook) summary() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	keys := make([]string, 0, len(b.counts))
	for k := range b.counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sb strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&sb, "  %s: %d\n", k, b.counts[k])
	}
	return sb.String()
}

// refusals is the number of race refusals across all tools.
func (b *outcomeBook) refusals() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for k, c := range b.counts {
		if raceRefusals[k[strings.LastIndexByte(k, ' ')+1:]] {
			n += c
		}
	}
	return n
}

// fail records a failure the classification cannot see, such as a replay
// whose result differs from the original.
func (b *outcomeBook) fail(msg string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.failures = append(b.failures, msg)
}
