package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// handoffUsage covers both spellings: collab handoff … and collab task
// handoff … are the same commands.
const handoffUsage = "handoff offer TASK --to NAME --summary TEXT | --stdin | --file F [--ttl SECONDS] | respond HANDOFF --accept|--decline"

// Handoff offers a task the person holds to another session, or answers
// an offer made to the person's session (collab handoff offer|respond,
// also spelt collab task handoff offer|respond).
func Handoff(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return handoff(ctx, "handoff", args, stdin, stdout, stderr)
}

func handoff(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sub := ""
	if len(args) > 0 {
		sub, args = args[0], args[1:]
	}
	switch sub {
	case "offer":
		return handoffOffer(ctx, name, args, stdin, stdout, stderr)
	case "respond":
		return handoffRespond(ctx, name, args, stdout, stderr)
	case "-h", "--help", "-help":
		fs, _ := newFlags(name, handoffUsage, stdout, stderr)
		fs.Usage()
		return ExitOK
	}
	return report(stderr, usageProblem(name+" needs offer or respond", name+handoffUsage[len("handoff"):]))
}

// handoffOffer invites another session to take over a task the person
// holds; the person keeps the lease until the offer is accepted.
func handoffOffer(ctx context.Context, name string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	usage := name + " offer TASK --to NAME --summary TEXT | --stdin | --file F [--ttl SECONDS] [--json]"
	fs, c := newFlags(name+" offer", usage, stdout, stderr)
	to := c.sessionFlag(fs, "to", "the session `NAME` to offer it to: an actor label, a short id or an id")
	summary := longTextVar(fs, "summary", "what the next holder must know `TEXT`")
	ttl := ttlVar(fs)
	var in store.OfferInput
	check := func(v *view) error {
		if !to.Given() {
			return usageProblem("say whom to offer it to with --to", usage)
		}
		if _, err := heldTask(ctx, v, c, usage, &in.Lease); err != nil {
			return err
		}
		text, hasText, err := summary.read(stdin)
		if err != nil {
			return err
		}
		if !hasText {
			return usageProblem(name+" offer needs a summary", usage)
		}
		a, err := checked("collab_handoff_offer", map[string]string{"task_id": in.Lease.TaskID, "to_session_id": to.ID(), "summary": text})
		if err != nil {
			return err
		}
		in.ToSessionID, in.Summary = given(a, "to_session_id"), a["summary"]
		in.TTLSeconds, err = ttlOf("collab_handoff_offer", *ttl)
		return err
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.Lease.IdempotencyKey = key()
		res, err := s.st.OfferHandoff(ctx, who, in)
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		line := "offered " + in.Lease.TaskID
		if a, ok := res.Value(); ok {
			line += " to " + sessionShown(to.Session(), c.ids) + " as " + a.Handoff.ID + ", open until " + a.Handoff.ExpiresAt + "; you keep the lease until they accept"
		}
		return answerOf(res, line)
	})
}

// handoffRespond accepts or declines an offer made to the person's
// session. The offer is found in the journal first, so an unknown or
// already answered one is refused without touching the session.
func handoffRespond(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	usage := name + " respond HANDOFF --accept|--decline [--json]"
	fs, c := newFlags(name+" respond", usage, stdout, stderr)
	accept := fs.Bool("accept", false, "take the task over")
	decline := fs.Bool("decline", false, "refuse the offer")
	var in store.RespondInput
	var offer handoffView
	check := func(v *view) error {
		if len(c.args) != 1 || *accept == *decline {
			return usageProblem(name+" respond needs a handoff id and exactly one of --accept, --decline", usage)
		}
		a, err := checked("collab_handoff_respond", map[string]string{"handoff_id": c.args[0]})
		if err != nil {
			return err
		}
		h, err := offered(ctx, v, a["handoff_id"])
		if err != nil {
			return err
		}
		offer = h
		t, err := readTask(ctx, v, h.TaskID)
		if err != nil {
			return err
		}
		in = store.RespondInput{WorkspaceID: v.ws.ID, HandoffID: h.ID, ExpectedVersion: t.Version, Response: "accept"}
		if *decline {
			in.Response = "decline"
		}
		return nil
	}
	return checkedAct(ctx, fs, c, args, stdout, stderr, check, func(s *personSeat) (any, string, error) {
		who, err := s.caller()
		if err != nil {
			return nil, "", err
		}
		in.IdempotencyKey = key()
		res, err := s.st.RespondToHandoff(ctx, who, in)
		if collaberr.HasCode(err, collaberr.HandoffNotRecipient) {
			return nil, "", ruleProblem(string(collaberr.HandoffNotRecipient), " (it is for "+offer.ToActor+")")
		}
		if err != nil {
			return nil, "", s.named(ctx, err)
		}
		line := "declined " + in.HandoffID
		if a, ok := res.Value(); ok && in.Response == "accept" {
			line = "accepted " + in.HandoffID + ": you now hold " + a.Task.ID + " " + quoted(a.Task.Title)
		}
		return answerOf(res, line)
	})
}

// offered is the workspace's offer id, refused when there is no such
// offer or it was answered or expired already.
func offered(ctx context.Context, v *view, id string) (handoffView, error) {
	row, found, err := v.st.FindHandoff(ctx, v.ws.ID, id)
	if err != nil {
		return handoffView{}, fmt.Errorf("read handoff %s: %w", id, err)
	}
	if !found {
		return handoffView{}, ruleProblem(string(collaberr.HandoffNotFound), " ("+id+")")
	}
	h := viewOfHandoff(row, store.FormatTime(time.Now()))
	switch h.Status {
	case "accepted", "declined":
		return h, ruleProblem(string(collaberr.HandoffResolved), " ("+id+" was "+h.Status+")")
	case "expired":
		return h, ruleProblem(string(collaberr.HandoffExpired), " ("+id+")")
	}
	return h, nil
}
