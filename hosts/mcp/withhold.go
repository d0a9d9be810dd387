package mcp

import (
	"context"

	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// withholding is the independence rule of the bound session for this
// call (store.Withholding); every read handler passes its answer through
// it, and for a session without an open claim it changes nothing.
func (p *Process) withholding(ctx context.Context) (store.Withholding, error) {
	return p.seat.Withholding(ctx)
}

// withholdHits drops the hits an open claim withholds (a hit's snippet is
// the material itself, and that it matched the query says something about
// its text) and counts them; never nil.
func (p *Process) withholdHits(ctx context.Context, hits []search.Hit) ([]search.Hit, int, error) {
	w, err := p.withholding(ctx)
	if err != nil {
		return nil, 0, err
	}
	out := []search.Hit{}
	withheld := 0
	for _, h := range hits {
		if _, ok := w.Withheld(h.WorkspaceID, h.SessionID, h.TaskID, h.ID, h.Snippet+" "+h.Title); ok && hitIsMaterial(h) {
			withheld++
			continue
		}
		out = append(out, h)
	}
	return out, withheld, nil
}

// hitIsMaterial is a hit from an event that carries material.
func hitIsMaterial(h search.Hit) bool { return store.IsMaterial(h.EventType) }
