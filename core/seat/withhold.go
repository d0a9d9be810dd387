package seat

import (
	"context"
	"fmt"

	"github.com/agenttool/collab/core/store"
)

// Withholding is the independence rule for the bound session (see
// store.Withholding): what every read answer of this seat must withhold
// while the session's claims are open. An unbound seat withholds nothing.
func (s *Seat) Withholding(ctx context.Context) (store.Withholding, error) {
	if s.bound == nil {
		return store.Withholding{}, nil
	}
	w, err := s.store.WithholdingFor(ctx, s.bound.credential())
	if err != nil {
		return store.Withholding{}, fmt.Errorf("read the session's independence claims: %w", err)
	}
	return w, nil
}
