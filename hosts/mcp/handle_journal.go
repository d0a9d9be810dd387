package mcp

import (
	"context"

	"github.com/agenttool/collab/core/anchor"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/place"
)

// anchorArg reads an anchor object argument (already schema-validated).
func anchorArg(a Args, name string) *journal.Anchor {
	o := a.Object(name)
	if o == nil {
		return nil
	}
	return &journal.Anchor{EpochID: o.String("epoch_id"), Sequence: o.Int("sequence"), Hash: o.String("hash")}
}

func handleEventsSince(ctx context.Context, p *Process, a Args) (any, error) {
	limit := int64(100)
	if n := a.OptInt("limit"); n != nil {
		limit = *n
	}
	page, err := p.store.EventsSince(ctx, a.String("workspace_id"), a.OptInt("after_sequence"), anchorArg(a, "after_anchor"), int(limit))
	if err != nil {
		return nil, err
	}
	w, err := p.withholding(ctx)
	if err != nil {
		return nil, err
	}
	return w.Page(page), nil
}

// VerifyResult is collab_journal_verify's answer.
type VerifyResult struct {
	WorkspaceID       string `json:"workspace_id"`
	ChainValid        bool   `json:"chain_valid"`
	VerificationScope string `json:"verification_scope"`
}

func handleJournalVerify(ctx context.Context, p *Process, a Args) (any, error) {
	id := a.String("workspace_id")
	ok, err := p.store.VerifyJournal(ctx, id)
	if err != nil {
		return nil, err
	}
	return VerifyResult{WorkspaceID: id, ChainValid: ok, VerificationScope: "full_journal"}, nil
}

func handleAnchorStatus(ctx context.Context, p *Process, a Args) (any, error) {
	id := a.String("workspace_id")
	ws, err := p.store.Workspace(ctx, id)
	if err != nil {
		if collaberr.HasCode(err, collaberr.WorkspaceNotFound) {
			return nil, collaberr.New(collaberr.WorkspaceNotFound, "No workspace has this id").With("workspace_id", id)
		}
		return nil, err
	}
	head := anchor.Head{WorkspaceID: ws.ID, EpochID: ws.EpochID, Sequence: ws.EventHeadSequence, Hash: ws.EventHeadHash}
	return anchor.Check(ctx, place.AnchorLedger(p.env()), head, p.store)
}
