package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"io"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// actCommand parses flags (with --as), takes the person's seat and runs
// body, printing its result as JSON or as the line it returns.
func actCommand(ctx context.Context, fs *flag.FlagSet, c *common, args []string, stdout, stderr io.Writer,
	body func(*personSeat) (any, string, error)) int {
	return checkedAct(ctx, fs, c, args, stdout, stderr, nil, body)
}

// checkedAct is actCommand with a check first: check (when set) reads the
// selected workspace read-only and refuses what it can before the
// person's session is touched, so that refusal writes nothing at all.
func checkedAct(ctx context.Context, fs *flag.FlagSet, c *common, args []string, stdout, stderr io.Writer,
	check func(*view) error, body func(*personSeat) (any, string, error)) int {
	as := fs.String("as", "", "your actor name when your session starts (default $COLLAB_PERSON, else person:<login>)")
	if err := parse(fs, c, args); err != nil {
		return UsageExit(err)
	}
	if check != nil {
		v, err := c.open(ctx)
		if err != nil {
			return c.fail(stdout, stderr, err)
		}
		err = check(v)
		v.st.Close()
		if err != nil {
			return c.fail(stdout, stderr, err)
		}
	}
	s, err := takeSeat(ctx, c, defaultActor(*as))
	if err != nil {
		return c.fail(stdout, stderr, err)
	}
	defer s.close()
	result, text, err := body(s)
	if err != nil {
		return c.fail(stdout, stderr, err)
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
	const usage = "post MESSAGE [--to NAME] [--task TASK] [--kind observation|inference|proposal] [--json]"
	fs, c := newFlags("post", usage, stdout, stderr)
	to := c.sessionFlag(fs, "to", "address the report to session `NAME`: an actor label, a short id or an id")
	task := fs.String("task", "", "the report is about task `T`")
	kind := fs.String("kind", "observation", "report kind `K`")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *personSeat) (any, string, error) {
		if len(c.args) == 0 {
			return nil, "", usageProblem("post needs a message", usage)
		}
		sent := map[string]string{"kind": *kind, "body": strings.Join(c.args, " ")}
		args, err := checked("collab_report_append", withSet(withSet(sent, "to_session_id", to.ID()), "task_id", *task))
		if err != nil {
			return nil, "", err
		}
		cred, err := s.credential()
		if err != nil {
			return nil, "", err
		}
		in := store.AppendReportInput{IdempotencyKey: key(), Kind: args["kind"], Body: args["body"],
			ToSessionID: given(args, "to_session_id"), TaskID: given(args, "task_id")}
		res, err := s.st.AppendReport(ctx, cred, in)
		if err != nil {
			return nil, "", s.refused(err)
		}
		posted, _ := res.Value()
		text := "posted report " + posted.Report.ID
		if to.Given() {
			text += " to " + sessionShown(to.Session(), c.ids)
		}
		return answerOf(res, text)
	})
}

// Decide records a decision in the person's session.
func Decide(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	const usage = "decide TOPIC DECISION [--rationale R] [--scope S] [--basis B] [--json]"
	fs, c := newFlags("decide", usage, stdout, stderr)
	rationale := fs.String("rationale", "", "why")
	scope := fs.String("scope", "this workspace", "what the decision governs")
	basis := fs.String("basis", "decided by a person at the collab terminal", "on what authority")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *personSeat) (any, string, error) {
		if len(c.args) < 2 {
			return nil, "", usageProblem("decide needs a topic and a decision", usage)
		}
		args, err := checked("collab_decision_record", withSet(map[string]string{"topic": c.args[0],
			"decision": strings.Join(c.args[1:], " "), "authority_scope": *scope, "authority_basis": *basis}, "rationale", *rationale))
		if err != nil {
			return nil, "", err
		}
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		scope, basis := args["authority_scope"], args["authority_basis"]
		res, err := s.st.RecordDecision(ctx, who, store.RecordDecisionInput{WorkspaceID: s.ws.ID, IdempotencyKey: key(),
			Topic: args["topic"], Decision: args["decision"], Rationale: given(args, "rationale"),
			AuthorityScope: &scope, AuthorityBasis: &basis})
		if err != nil {
			return nil, "", s.refused(err)
		}
		return answerOf(res, "recorded a decision on "+c.args[0])
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
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *personSeat) (any, string, error) {
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
		args, err := checked("collab_task_get", map[string]string{"task_id": c.args[0]})
		if err != nil {
			return nil, "", err
		}
		got, err := s.st.GetTask(ctx, s.ws.ID, args["task_id"])
		if err != nil {
			return nil, "", s.refused(err)
		}
		if args, err = checked("collab_task_review", map[string]string{"task_id": c.args[0], "summary": *summary}); err != nil {
			return nil, "", err
		}
		cred, err := s.credential()
		if err != nil {
			return nil, "", err
		}
		res, err := s.st.ReviewTask(ctx, cred, store.ReviewInput{WorkspaceID: s.ws.ID, IdempotencyKey: key(), TaskID: args["task_id"],
			ExpectedVersion: got.Version, Outcome: outcome, Summary: args["summary"]})
		if err != nil {
			return nil, "", s.refused(err)
		}
		return answerOf(res, text+c.args[0])
	})
}

// withSet adds name to args when a flag gave it a value: an unset (empty)
// flag is not sent at all.
func withSet(args map[string]string, name, value string) map[string]string {
	if value != "" {
		args[name] = value
	}
	return args
}

// given is the argument name as an optional input, nil when not sent.
func given(args map[string]string, name string) *string {
	v, ok := args[name]
	if !ok {
		return nil
	}
	return &v
}
