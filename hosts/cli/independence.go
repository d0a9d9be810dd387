package cli

import (
	"context"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/agenttool/collab/core/store"
)

const independenceUsage = "independence claim --task T|--report R|--topic L [--for DURATION] [--note TEXT] | release CLAIM --reason TEXT | list [--open] [--json]"

// Independence claims, releases or lists independence claims
// (docs/independence.md): claim and release act through the person's own
// session, as post does; list reads the journal.
func Independence(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		return report(stderr, usageProblem("independence needs claim, release or list", independenceUsage))
	}
	switch args[0] {
	case "claim":
		return independenceClaim(ctx, args[1:], stdout, stderr)
	case "release":
		return independenceRelease(ctx, args[1:], stdout, stderr)
	case "list":
		return independenceList(ctx, args[1:], stdout, stderr)
	}
	return report(stderr, usageProblem("unknown independence command "+strconv.Quote(args[0]), independenceUsage))
}

func independenceClaim(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("independence claim", independenceUsage, stdout, stderr)
	task := fs.String("task", "", "claim task `T`: its completion, progress, reviews and artifacts")
	rep := fs.String("report", "", "claim the thread of report `R`")
	topic := fs.String("topic", "", "claim every report tagged #`L`")
	lasting := fs.Duration("for", 24*time.Hour, "how long the claim may stay open (1m to 168h)")
	note := fs.String("note", "", "what you are verifying, for the others")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *personSeat) (any, string, error) {
		cred, err := s.credential()
		if err != nil {
			return nil, "", err
		}
		secs := int64(lasting.Seconds())
		in := store.ClaimIndependenceInput{TaskID: nonEmpty(*task), ReportID: nonEmpty(*rep), Topic: nonEmpty(*topic),
			TTLSeconds: &secs, Note: nonEmpty(*note)}
		res, err := s.st.ClaimIndependence(ctx, cred, in)
		if err != nil {
			return nil, "", s.refused(err)
		}
		text := "claimed independence on " + res.Claim.Subject.String() + " until " + res.Claim.ExpiresAt + " (" + res.Claim.ID + ")"
		if res.Unchanged {
			text = "already claimed: " + text
		}
		return res, text, nil
	})
}

func independenceRelease(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("independence release", independenceUsage, stdout, stderr)
	reason := fs.String("reason", "", "why you release the claim before posting your finding")
	return actCommand(ctx, fs, c, args, stdout, stderr, func(s *personSeat) (any, string, error) {
		if len(c.args) != 1 || *reason == "" {
			return nil, "", usageProblem("release needs one claim id and --reason", independenceUsage)
		}
		cred, err := s.credential()
		if err != nil {
			return nil, "", err
		}
		res, err := s.st.ReleaseIndependence(ctx, cred, c.args[0], *reason)
		if err != nil {
			return nil, "", s.refused(err)
		}
		text := "released " + res.Claim.ID + ": " + strconv.Itoa(len(res.Released)) + " withheld reports are readable now"
		if res.Unchanged {
			text = res.Claim.ID + " had already ended (" + res.Claim.Status + ")"
		}
		return res, text, nil
	})
}

func independenceList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs, c := newFlags("independence list", independenceUsage, stdout, stderr)
	open := fs.Bool("open", false, "only open claims")
	return readCommand(ctx, fs, c, args, stdout, stderr, func(v *view) error {
		all, err := v.st.Independence(ctx, v.ws.ID)
		if err != nil {
			return err
		}
		claims := []store.IndependenceClaim{}
		for _, cl := range all.Claims {
			if !*open || cl.Status == store.ClaimOpen {
				claims = append(claims, cl)
			}
		}
		p := newPrinter(stdout)
		if c.json {
			return p.json(map[string]any{"claims": claims, "independent_reviews": all.Reviews})
		}
		for _, cl := range claims {
			p.line("%s", claimLine(cl))
		}
		if len(claims) == 0 {
			p.line("no independence claims")
		}
		for _, r := range all.Reviews {
			p.line("%s", reviewLine(r))
		}
		return nil
	})
}

// claimLine says who verifies what independently, since when, and how
// the claim stands.
func claimLine(c store.IndependenceClaim) shown {
	state := "open until " + c.ExpiresAt
	switch c.Status {
	case store.ClaimReleasedByFinding:
		state = "released by its finding " + deref(c.FindingReportID)
	case store.ClaimReleased:
		state = "released: " + deref(c.ReleaseNote)
	case store.ClaimExpired:
		state = "expired at " + c.ExpiresAt
	}
	line := c.Actor + " is verifying " + c.Subject.String() + " independently since " + c.ClaimedAt + "; " + state
	if c.Note != nil {
		line += " (" + *c.Note + ")"
	}
	return safef("%-9s %s  %s", strings.SplitN(c.Status, "_", 2)[0], c.ID, line)
}

// reviewLine is one blind review, in the words a person weighs it by.
func reviewLine(r store.IndependentReview) shown {
	what := "accepted after an independent review"
	if r.Outcome != "accepted" {
		what = "changes requested after an independent review"
	}
	return safef("task %s %s by %s (%s, claim %s)", r.TaskID, what, r.ReviewerActor, r.ReviewID, r.ClaimID)
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// independentReviewLines prints the blind reviews of one task under show.
func independentReviewLines(ctx context.Context, v *view, p *printer, taskID string) error {
	all, err := v.st.Independence(ctx, v.ws.ID)
	if err != nil {
		return err
	}
	for _, r := range all.Reviews {
		if r.TaskID == taskID {
			p.line("  blind      %s", reviewLine(r))
		}
	}
	return nil
}
