package mcp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agenttool/collab/core/place"
)

// ToolsEnv names the environment variable that selects the tool profile.
const ToolsEnv = place.EnvTools

// CoreTools is the "core" profile: what a working agent uses in a normal
// credential-bound session, and nothing else. It is chosen by the flow:
// start a session; find, create, claim and do work (list, get, create,
// claim, renew, progress, release, complete); hand work over and answer
// offers; review others' work; talk (report_append); poll, acknowledge and
// wait (next, cursor_ack, wait); see the whole (workspace_status); end.
// Left out, each with its reason: legacy mode (workspace_open) and the
// self-declared presence plane (session_join/list/heartbeat/leave), which
// bound sessions do not need; auditing and recovery that a person or a
// rare turn does (events_since, journal_verify, anchor_status,
// cursor_reset, task_recover); and detail tools whose job a core tool
// already does in another form (task_block/unblock via progress and
// reports, artifact_attach via evidence refs, report_list and
// decision_record via collab_next and report_append).
var CoreTools = []string{
	"collab_session_start", "collab_session_end", "collab_next", "collab_cursor_ack", "collab_wait",
	"collab_workspace_status", "collab_task_list", "collab_task_get", "collab_task_create", "collab_task_claim",
	"collab_task_renew", "collab_task_progress", "collab_task_release", "collab_task_complete", "collab_task_review",
	"collab_handoff_offer", "collab_handoff_respond", "collab_report_append",
}

// SelectTools returns the tools of a profile, in tools/list order: "" or
// "all" is every tool (the reference's 32 plus the extensions), "core" is
// CoreTools, anything else a comma-separated list of tool names. An
// unknown name is an error that lists the valid ones.
func SelectTools(spec string) ([]Tool, error) {
	all := Tools()
	spec = strings.TrimSpace(spec)
	if spec == "" || spec == "all" {
		return all, nil
	}
	names := CoreTools
	if spec != "core" {
		names = strings.Split(spec, ",")
	}
	want := map[string]bool{}
	for _, n := range names {
		want[strings.TrimSpace(n)] = true
	}
	delete(want, "")
	var out []Tool
	for _, t := range all {
		if want[t.Name] {
			out = append(out, t)
			delete(want, t.Name)
		}
	}
	if len(want) > 0 {
		var unknown []string
		for n := range want {
			unknown = append(unknown, n)
		}
		sort.Strings(unknown)
		return nil, fmt.Errorf("%s names unknown tools %s; use all, core, or names from docs/tools.md", ToolsEnv, strings.Join(unknown, ", "))
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s selects no tool; use all, core, or a comma list of tool names", ToolsEnv)
	}
	return out, nil
}

// Profile returns the tools this process serves, from its environment.
func (p *Process) Profile() ([]Tool, error) {
	return SelectTools(p.getenv(ToolsEnv))
}
