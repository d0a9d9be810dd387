package seat

import (
	"context"

	"github.com/agenttool/collab/core/store"
)

// Describe says what holds the sessions this seat binds (the kind of
// host, the client's name and version, the holding process): every later
// start or resume records it (store.RecordSessionHost), and a seat
// already bound records it at once, so a client's initialize arriving
// after a startup resume still names the host. A seat never described
// records nothing.
func (s *Seat) Describe(ctx context.Context, h store.SessionHost) {
	s.host = &h
	s.recordHost(ctx)
}

// recordHost stores the seat's description as its bound session's host
// record. The record only informs people's views (liveness), so a
// failure to store it costs the session nothing and is not reported.
func (s *Seat) recordHost(ctx context.Context) {
	if s.host == nil || s.bound == nil {
		return
	}
	_ = s.store.RecordSessionHost(ctx, s.bound.credential(), *s.host)
}
