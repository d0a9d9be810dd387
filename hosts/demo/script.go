package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// script is one run of the demo's story.
type script struct {
	opts   Options
	tr     *Transcript
	out    io.Writer
	agents []*agent
	ws     string
	key    int
}

// Task ids of the story.
const (
	taskLimiter  = "rate-limiter"
	taskRefactor = "refactor-handlers"
	taskDocs     = "document-limits"
)

func (s *script) run(ctx context.Context) error {
	defer func() {
		for _, a := range s.agents {
			a.conn.Close()
		}
	}()
	s.say("Three agents, each its own collab MCP server process over stdio, share one journal:\n  %s\n", s.tr.Database)
	ada, ben, cy, err := s.start(ctx)
	if err != nil {
		return err
	}
	steps := []func(context.Context, *agent, *agent, *agent) error{
		s.createTasks, s.claimAndConflict, s.talk, s.handOff, s.completeAndReview, s.pickUpNext, s.verify,
	}
	for _, step := range steps {
		if err := step(ctx, ada, ben, cy); err != nil {
			return err
		}
	}
	return nil
}

func (s *script) start(ctx context.Context) (*agent, *agent, *agent, error) {
	s.section("Sessions start")
	var out []*agent
	for _, name := range []string{"ada", "ben", "cy"} {
		a, err := startAgent(ctx, s.opts, name, s.tr.Database)
		if err != nil {
			return nil, nil, nil, err
		}
		s.agents = append(s.agents, a)
		res, err := s.ok(ctx, a, "collab_session_start", map[string]any{"root_path": s.tr.Repository, "actor": name},
			"starts a credential-bound session in the repository")
		if err != nil {
			return nil, nil, nil, err
		}
		a.sessionID = str(res, "session.id")
		s.ws = str(res, "workspace.id")
		s.tr.WorkspaceID = s.ws
		out = append(out, a)
	}
	return out[0], out[1], out[2], nil
}

func (s *script) createTasks(ctx context.Context, ada, ben, _ *agent) error {
	s.section("Tasks with path scopes")
	if _, err := s.ok(ctx, ada, "collab_task_create", s.args(map[string]any{
		"task_id": taskLimiter, "title": "Add a rate limiter to the API", "path_scopes": []any{"src/api"},
	}), "creates "+taskLimiter+" scoped to src/api"); err != nil {
		return err
	}
	if _, err := s.ok(ctx, ben, "collab_task_create", s.args(map[string]any{
		"task_id": taskRefactor, "title": "Split the API handlers", "path_scopes": []any{"src/api/handlers.go"},
	}), "creates "+taskRefactor+" scoped to src/api/handlers.go"); err != nil {
		return err
	}
	_, err := s.ok(ctx, ben, "collab_task_create", s.args(map[string]any{
		"task_id": taskDocs, "title": "Document the rate limits", "path_scopes": []any{"docs"},
		"dependencies": []any{taskLimiter},
	}), "creates "+taskDocs+" (docs), which waits for "+taskLimiter)
	return err
}

func (s *script) claimAndConflict(ctx context.Context, ada, ben, _ *agent) error {
	s.section("Claims and a refused overlap")
	if _, err := s.ok(ctx, ada, "collab_task_claim", s.args(map[string]any{"task_id": taskLimiter, "expected_version": 1}),
		"claims "+taskLimiter); err != nil {
		return err
	}
	res, err := s.refused(ctx, ben, "collab_task_claim", s.args(map[string]any{"task_id": taskRefactor, "expected_version": 1}),
		"tries to claim "+taskRefactor, "path_scope_conflict")
	if err != nil {
		return err
	}
	s.note("refused: %s holds %s; overlapping paths %s", str(res, "assignee"), str(res, "conflicting_task_id"), pairs(res))
	return nil
}

func (s *script) talk(ctx context.Context, ada, ben, _ *agent) error {
	s.section("A report and a decision")
	if _, err := s.ok(ctx, ben, "collab_report_append", s.args(map[string]any{
		"kind": "proposal", "to_session_id": ada.sessionID, "task_id": taskLimiter,
		"body": "Handlers should read the limit from config, not a constant.",
	}), "posts a proposal to ada about "+taskLimiter); err != nil {
		return err
	}
	_, err := s.ok(ctx, ada, "collab_decision_record", s.args(map[string]any{
		"topic": "rate limits", "decision": "100 requests per minute per client, configurable",
		"rationale":       "ben's proposal; keeps tests deterministic",
		"authority_scope": "the shop's API", "authority_basis": "ada leads the API work in this demo",
	}), "records a decision on \"rate limits\"")
	return err
}

func (s *script) handOff(ctx context.Context, ada, ben, _ *agent) error {
	s.section("A handoff")
	task, err := s.task(ctx, ada, taskLimiter)
	if err != nil {
		return err
	}
	res, err := s.ok(ctx, ada, "collab_handoff_offer", s.args(map[string]any{
		"task_id": taskLimiter, "lease_id": str(task, "lease_id"), "expected_version": num(task, "version"),
		"to_session_id": ben.sessionID, "summary": "Limiter skeleton is in; please wire the config and finish.",
	}), "offers "+taskLimiter+" to ben")
	if err != nil {
		return err
	}
	_, err = s.ok(ctx, ben, "collab_handoff_respond", s.args(map[string]any{
		"handoff_id": str(res, "handoff.id"), "expected_version": num(res, "task.version"), "response": "accept",
	}), "accepts the handoff and now holds the lease")
	return err
}

func (s *script) completeAndReview(ctx context.Context, _, ben, cy *agent) error {
	s.section("Completion and review")
	if err := s.complete(ctx, ben, "Limiter reads its limit from config; tests added."); err != nil {
		return err
	}
	if err := s.review(ctx, cy, "request_changes", "Please cover the burst case in tests.",
		"reviews and requests changes (the task reopens)"); err != nil {
		return err
	}
	task, err := s.task(ctx, ben, taskLimiter)
	if err != nil {
		return err
	}
	if _, err := s.ok(ctx, ben, "collab_task_claim", s.args(map[string]any{"task_id": taskLimiter, "expected_version": num(task, "version")}),
		"claims "+taskLimiter+" again"); err != nil {
		return err
	}
	if err := s.complete(ctx, ben, "Burst case covered."); err != nil {
		return err
	}
	return s.review(ctx, cy, "accept", "Looks right; burst test passes.", "reviews and accepts")
}

func (s *script) complete(ctx context.Context, ben *agent, summary string) error {
	task, err := s.task(ctx, ben, taskLimiter)
	if err != nil {
		return err
	}
	_, err = s.ok(ctx, ben, "collab_task_complete", s.args(map[string]any{
		"task_id": taskLimiter, "lease_id": str(task, "lease_id"), "expected_version": num(task, "version"),
		"summary": summary, "confidence": "high",
	}), "reports "+taskLimiter+" complete (it now awaits review by another session)")
	return err
}

func (s *script) review(ctx context.Context, cy *agent, outcome, summary, says string) error {
	task, err := s.task(ctx, cy, taskLimiter)
	if err != nil {
		return err
	}
	_, err = s.ok(ctx, cy, "collab_task_review", s.args(map[string]any{
		"task_id": taskLimiter, "expected_version": num(task, "version"), "outcome": outcome, "summary": summary,
	}), says)
	return err
}

func (s *script) pickUpNext(ctx context.Context, _, ben, cy *agent) error {
	s.section("Unblocked work")
	res, err := s.ok(ctx, cy, "collab_next", map[string]any{"workspace_id": s.ws}, "asks collab_next what to do")
	if err != nil {
		return err
	}
	ready, _ := res["ready_tasks"].([]any)
	var version int64
	var ids []string
	for _, t := range ready {
		tm, _ := t.(map[string]any)
		ids = append(ids, str(tm, "id"))
		if str(tm, "id") == taskDocs {
			version = num(tm, "version")
		}
	}
	s.note("ready: %s", strings.Join(ids, ", "))
	if version == 0 {
		return s.fail(cy, "collab_next", taskDocs+" among the ready tasks", strings.Join(ids, ", "))
	}
	if _, err := s.ok(ctx, cy, "collab_task_claim", s.args(map[string]any{"task_id": taskDocs, "expected_version": version}),
		"claims "+taskDocs+", unblocked now that "+taskLimiter+" is accepted"); err != nil {
		return err
	}
	_, err = s.ok(ctx, ben, "collab_task_claim", s.args(map[string]any{"task_id": taskRefactor, "expected_version": 1}),
		"retries "+taskRefactor+"; src/api is free now")
	return err
}

func (s *script) verify(ctx context.Context, ada, _, _ *agent) error {
	s.section("The journal")
	res, err := s.ok(ctx, ada, "collab_journal_verify", map[string]any{"workspace_id": s.ws}, "verifies the hash chain")
	if err != nil {
		return err
	}
	if valid, _ := res["chain_valid"].(bool); !valid {
		return s.fail(ada, "collab_journal_verify", "chain_valid true", fmt.Sprint(res["chain_valid"]))
	}
	status, err := ada.conn.Call(ctx, "collab_workspace_status", map[string]any{"workspace_id": s.ws})
	if err != nil {
		return err
	}
	s.note("%d events, every hash links to the one before", num(status.Data, "workspace.event_head_sequence"))
	return nil
}

// task reads one task as a's server sees it.
func (s *script) task(ctx context.Context, a *agent, id string) (map[string]any, error) {
	out, err := a.conn.Call(ctx, "collab_task_get", map[string]any{"workspace_id": s.ws, "task_id": id})
	if err != nil {
		return nil, err
	}
	if out.Refused() {
		return nil, s.fail(a, "collab_task_get", "the task", out.Code+": "+out.Message)
	}
	t, _ := out.Data["task"].(map[string]any)
	return t, nil
}

// args adds the workspace and a fresh idempotency key to a mutation.
func (s *script) args(m map[string]any) map[string]any {
	s.key++
	m["workspace_id"] = s.ws
	m["idempotency_key"] = fmt.Sprintf("demo-%03d", s.key)
	return m
}

// ok calls a tool that must succeed.
func (s *script) ok(ctx context.Context, a *agent, tool string, args map[string]any, says string) (map[string]any, error) {
	out, err := a.conn.Call(ctx, tool, args)
	if err != nil {
		return nil, s.fail(a, tool, "ok", err.Error())
	}
	if out.Refused() {
		return nil, s.fail(a, tool, "ok", out.Code+": "+out.Message)
	}
	s.record(Step{Agent: a.name, Tool: tool, Says: says, Expected: "ok", Outcome: "ok", OK: true})
	return out.Data, nil
}

// refused calls a tool that must be refused with code.
func (s *script) refused(ctx context.Context, a *agent, tool string, args map[string]any, says, code string) (map[string]any, error) {
	out, err := a.conn.Call(ctx, tool, args)
	if err != nil {
		return nil, s.fail(a, tool, code, err.Error())
	}
	if out.Code != code {
		got := "ok"
		if out.Refused() {
			got = out.Code + ": " + out.Message
		}
		return nil, s.fail(a, tool, code, got)
	}
	s.record(Step{Agent: a.name, Tool: tool, Says: says, Expected: code, Outcome: code, Detail: out.Message, OK: true})
	return out.Data, nil
}

func (s *script) fail(a *agent, tool, expected, got string) error {
	st := Step{Agent: a.name, Tool: tool, Expected: expected, Outcome: got}
	s.record(st)
	return fmt.Errorf("%w: %s called %s expecting %s, got %s", ErrScript, a.name, tool, expected, got)
}

func (s *script) record(st Step) {
	s.tr.Steps = append(s.tr.Steps, st)
	switch {
	case !st.OK:
		fmt.Fprintf(s.out, "  %s %-4s %s → expected %s, got %s\n", s.paint("31", "✖"), st.Agent, st.Tool, st.Expected, st.Outcome)
	case st.Outcome == "ok":
		fmt.Fprintf(s.out, "  %s %-4s %s\n", s.paint("32", "✔"), st.Agent, st.Says)
	default:
		fmt.Fprintf(s.out, "  %s %-4s %s\n", s.paint("33", "✋"), st.Agent, st.Says)
	}
}

func (s *script) section(title string) { fmt.Fprintf(s.out, "\n%s\n", s.paint("1", title)) }

func (s *script) say(format string, a ...any) { fmt.Fprintf(s.out, format, a...) }

func (s *script) note(format string, a ...any) {
	fmt.Fprintf(s.out, "         %s\n", s.paint("2", fmt.Sprintf(format, a...)))
}

func (s *script) paint(code, text string) string {
	if !s.opts.Color {
		return text
	}
	return "\x1b[" + code + "m" + text + "\x1b[0m"
}

// epilogue says where the journal is and how to look at it.
func (s *script) epilogue() {
	if s.tr.Failure != "" {
		fmt.Fprintf(s.out, "\n%s %s\n", s.paint("31", "demo failed:"), s.tr.Failure)
	} else {
		fmt.Fprintf(s.out, "\n%s in %d ms, %d steps.\n", s.paint("32", "Done"), s.tr.ElapsedMS, len(s.tr.Steps))
	}
	db := s.tr.Database
	if !s.tr.Kept {
		fmt.Fprintf(s.out, "The temporary repository and database were removed; keep them with --keep DIR, then:\n")
		db = filepath.Join("DIR", "state", "collab.sqlite")
	} else {
		fmt.Fprintf(s.out, "Database:   %s\nRepository: %s\nLook at it:\n", db, s.tr.Repository)
	}
	again := s.opts.Again
	if again == "" {
		again = "collab"
	}
	fmt.Fprintf(s.out, "  %s status --db %s\n  %s tail --db %s\n", again, shellWord(db), again, shellWord(db))
}

// pairs renders the path pairs of a path_scope_conflict refusal, whose
// conflicts detail lists [this task's scope, the other task's scope] pairs.
func pairs(res map[string]any) string {
	var out []string
	conflicts, _ := res["conflicts"].([]any)
	for _, p := range conflicts {
		b, _ := json.Marshal(p)
		out = append(out, string(b))
	}
	return strings.Join(out, " ")
}
