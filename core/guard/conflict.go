package guard

import (
	"github.com/agenttool/collab/core/scope"
	"github.com/agenttool/collab/core/store"
)

// Conflict is one changed path inside a scope that another session (or a
// legacy actor) reserves.
type Conflict struct {
	Path        string            `json:"path"`
	Scope       string            `json:"scope"`
	Reservation store.Reservation `json:"-"`
}

// Find maps changes onto reservations with the overlap rule of conflict
// projection (segment-aware, Unicode- and case-insensitive): a path
// conflicts with a scope that equals it or contains it, and with a scope
// inside it (a deleted or renamed folder). Reservations held by the
// session ownSessionID never conflict. The result follows the order of the
// changes, then of the reservations; each (path, task) pair appears once.
func Find(changes []Change, reservations []store.Reservation, ownSessionID string) []Conflict {
	type held struct {
		r   store.Reservation
		set scope.Set
	}
	others := make([]held, 0, len(reservations))
	for _, r := range reservations {
		if ownSessionID != "" && r.AssigneeSessionID != nil && *r.AssigneeSessionID == ownSessionID {
			continue
		}
		others = append(others, held{r, scope.NewSet(r.PathScopes)})
	}
	var out []Conflict
	seen := map[[3]string]bool{}
	for _, c := range changes {
		for _, p := range c.Paths() {
			path := scope.NewSet([]string{p})
			for _, h := range others {
				if !path.Overlaps(h.set) {
					continue
				}
				key := [3]string{p, h.r.WorkspaceID, h.r.TaskID}
				if seen[key] {
					continue
				}
				seen[key] = true
				out = append(out, Conflict{Path: p, Scope: path.Conflicts(h.set)[0][1], Reservation: h.r})
			}
		}
	}
	return out
}
