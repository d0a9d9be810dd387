package httpserve

import (
	"context"
	"net/http"
	"time"
)

// revocationCheck is how often an open GET stream re-checks its client's
// token; a revoked or expired token ends the stream within about this long.
const revocationCheck = time.Second

// streamContext returns the context of a long-lived GET stream: it ends
// when the request's does, when a drain starts, or when the bearer token
// that opened the stream no longer admits principal (revoked, expired, or
// the token file became unreadable). Without a token store nothing is
// re-checked.
func (s *Server) streamContext(ctx context.Context, r *http.Request, principal string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	var tick <-chan time.Time
	if s.cfg.Tokens != nil {
		t := time.NewTicker(revocationCheck)
		tick = t.C
		go func() { <-ctx.Done(); t.Stop() }()
	}
	go func() {
		for {
			select {
			case <-s.stopping:
				cancel()
				return
			case <-ctx.Done():
				return
			case <-tick:
				if p, ok := s.authenticate(r); !ok || p != principal {
					s.log.Info("stream closed: token no longer admitted", "client", principal)
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}
