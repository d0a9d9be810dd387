package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"io"
	"strings"
)

// actCommand parses flags (with --as), takes the person's seat and runs
// body, printing its result as JSON or as the line it returns.
func actCommand(ctx context.Context, fs *flag.FlagSet, c *common, args []string, stdout, stderr io.Writer,
	body func(*seat) (any, string, error)) int {
	as := fs.String("as", "", "your actor name when your session starts (default $COLLAB_PERSON, else person:<login>)")
	if err := parse(fs, c, args); err != nil {
		return UsageExit(err)
	}
	s, err := takeSeat(ctx, c, defaultActor(*as))
	if err != nil {
		return report(stderr, err)
	}
	defer s.close()
	result, text, err := body(s)
	if err != nil {
		return report(stderr, err)
	}
	p := newPrinter(stdout)
	if c.json {
		p.json(result)
	} else {
		p.line("%s %s", p.paint("32", "✔"), text)
	}
	return ExitOK
}

// key is a fresh idempotency key for one action.
func key() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "cli-" + hex.EncodeToString(b)
}

func usageProblem(what, usage string) error {
	return &problem{what: what, fix: "usage: " + ProgramName() + " " + usage, code: ExitUsage}
}

// Post appends a report in the person's session, optionally addressed to a
// session and about a task.
func Post(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "post MESSAGE [--to SESSION] [--task TASK] [--kind observation|inference|proposal] [--json]"
	fs, c := newFlags("post", usage, stdout, stderr)
	to := fs.String("to", "", "address the report to session `S`")
	task := fs.String("task", "", "the report is about task `T`")
	kind := fs.String("kind", "observation", "report kind `K`")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *seat) (any, string, error) {
		if len(c.args) == 0 {
			return nil, "", usageProblem("post needs a message", usage)
		}
		in := map[string]any{"idempotency_key": key(), "kind": *kind, "body": strings.Join(c.args, " ")}
		if *to != "" {
			in["to_session_id"] = *to
		}
		if *task != "" {
			in["task_id"] = *task
		}
		res, err := s.call(ctx, "collab_report_append", in)
		if err != nil {
			return nil, "", err
		}
		return res, "posted report " + str(res, "report", "id"), nil
	})
}

// Decide records a decision in the person's session.
func Decide(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "decide TOPIC DECISION [--rationale R] [--scope S] [--basis B] [--json]"
	fs, c := newFlags("decide", usage, stdout, stderr)
	rationale := fs.String("rationale", "", "why")
	scope := fs.String("scope", "this workspace", "what the decision governs")
	basis := fs.String("basis", "decided by a person at the collab terminal", "on what authority")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *seat) (any, string, error) {
		if len(c.args) < 2 {
			return nil, "", usageProblem("decide needs a topic and a decision", usage)
		}
		in := map[string]any{"idempotency_key": key(), "topic": c.args[0], "decision": strings.Join(c.args[1:], " "),
			"authority_scope": *scope, "authority_basis": *basis}
		if *rationale != "" {
			in["rationale"] = *rationale
		}
		res, err := s.call(ctx, "collab_decision_record", in)
		if err != nil {
			return nil, "", err
		}
		return res, "recorded a decision on " + c.args[0], nil
	})
}

// Review accepts a reported completion or sends it back, as the person's
// session; the store refuses a review of the session's own report.
func Review(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "review TASK --accept|--request-changes [--summary TEXT] [--json]"
	fs, c := newFlags("review", usage, stdout, stderr)
	accept := fs.Bool("accept", false, "accept the reported completion")
	changes := fs.Bool("request-changes", false, "send the task back (it reopens)")
	summary := fs.String("summary", "", "what you checked or what must change")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *seat) (any, string, error) {
		if len(c.args) != 1 || *accept == *changes {
			return nil, "", usageProblem("review needs one task and exactly one of --accept, --request-changes", usage)
		}
		outcome, text := "accept", "accepted "
		if *changes {
			outcome, text = "request_changes", "requested changes on "
		}
		if *summary == "" {
			*summary = "Reviewed at the terminal."
		}
		got, err := s.call(ctx, "collab_task_get", map[string]any{"task_id": c.args[0]})
		if err != nil {
			return nil, "", err
		}
		version, _ := dig(got, "task", "version").(float64)
		res, err := s.call(ctx, "collab_task_review", map[string]any{"idempotency_key": key(), "task_id": c.args[0],
			"expected_version": int64(version), "outcome": outcome, "summary": *summary})
		if err != nil {
			return nil, "", err
		}
		return res, text + c.args[0], nil
	})
}

// Handoff answers a handoff offered to the person's session.
func Handoff(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "handoff respond HANDOFF --accept|--decline [--json]"
	fs, c := newFlags("handoff", usage, stdout, stderr)
	accept := fs.Bool("accept", false, "take the task over")
	decline := fs.Bool("decline", false, "refuse the offer")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *seat) (any, string, error) {
		if len(c.args) != 2 || c.args[0] != "respond" || *accept == *decline {
			return nil, "", usageProblem("handoff respond needs a handoff id and exactly one of --accept, --decline", usage)
		}
		id := c.args[1]
		next, err := s.call(ctx, "collab_next", map[string]any{})
		if err != nil {
			return nil, "", err
		}
		offers, _ := next["handoff_offers"].([]any)
		var version float64
		for _, o := range offers {
			if dig(o, "handoff", "id") == id {
				version, _ = dig(o, "task", "version").(float64)
			}
		}
		if version == 0 {
			return nil, "", &problem{what: "no pending handoff " + id + " is offered to your session",
				fix: "see offers with `collab tail --kind handoff`; an offer must name your session (`collab whoami`)", code: ExitRefused}
		}
		response, text := "accept", "accepted handoff "
		if *decline {
			response, text = "decline", "declined handoff "
		}
		res, err := s.call(ctx, "collab_handoff_respond", map[string]any{"idempotency_key": key(), "handoff_id": id,
			"expected_version": int64(version), "response": response})
		if err != nil {
			return nil, "", err
		}
		return res, text + id, nil
	})
}

func dig(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func str(v any, path ...string) string {
	s, _ := dig(v, path...).(string)
	return s
}
