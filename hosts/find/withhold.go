package find

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// withholdHits drops the hits a person's open independence claims keep
// from them (docs/independence.md), as collab_search does for a session:
// for each workspace among the hits, the claims of the person's own
// session there, found through the credential the people's commands keep.
// A person who never acted in a workspace has no session there and reads
// everything. It returns the hits kept and how many were withheld.
func withholdHits(ctx context.Context, st *store.Store, hits []search.Hit) ([]search.Hit, int, error) {
	rules := map[string]store.Withholding{}
	kept, withheld := []search.Hit{}, 0
	for _, h := range hits {
		w, seen := rules[h.WorkspaceID]
		if !seen {
			var err error
			if w, err = personWithholding(ctx, st, h.WorkspaceID); err != nil {
				return nil, 0, err
			}
			rules[h.WorkspaceID] = w
		}
		if _, ok := w.Withheld(h.WorkspaceID, h.SessionID, h.TaskID, h.ID, h.Snippet+" "+h.Title); ok && store.IsMaterial(h.EventType) {
			withheld++
			continue
		}
		kept = append(kept, h)
	}
	return kept, withheld, nil
}

// personWithholding is the rule for the person's session on workspace ws.
func personWithholding(ctx context.Context, st *store.Store, ws string) (store.Withholding, error) {
	path, err := place.PersonCredential(place.OS(), st.Path(), ws)
	if errors.Is(err, place.ErrNoHome) {
		return store.Withholding{}, nil
	}
	if err != nil {
		return store.Withholding{}, err
	}
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return store.Withholding{}, nil
	}
	cred, err := credfile.Read(path)
	if err != nil {
		return store.Withholding{}, fmt.Errorf("your session credential could not be read, so your independence claims are unknown (run collab whoami): %w", err)
	}
	w, err := st.WithholdingFor(ctx, store.Credential{SessionID: cred.SessionID})
	if err != nil {
		return store.Withholding{}, fmt.Errorf("read your independence claims: %w", err)
	}
	return w, nil
}
