package httpserve

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// Timeouts of the HTTP server: a client that sends its headers or body
// too slowly (slowloris) is cut off; an idle keep-alive connection is
// closed. There is no write timeout, so a slow tool call is not cut off.
type Timeouts struct {
	ReadHeader time.Duration
	Read       time.Duration
	Idle       time.Duration
	// Drain bounds how long a shutdown waits for calls in flight.
	Drain time.Duration
}

// DefaultTimeouts are used for zero fields of Timeouts.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: 60 * time.Second, Idle: 2 * time.Minute, Drain: 15 * time.Second}

func (t Timeouts) withDefaults() Timeouts {
	d := DefaultTimeouts
	if t.ReadHeader > 0 {
		d.ReadHeader = t.ReadHeader
	}
	if t.Read > 0 {
		d.Read = t.Read
	}
	if t.Idle > 0 {
		d.Idle = t.Idle
	}
	if t.Drain > 0 {
		d.Drain = t.Drain
	}
	return d
}

// Serve answers on ln until ctx ends, then drains: it stops accepting,
// ends long-lived streams, waits up to Drain for the calls in flight to
// be answered, and closes whatever is left. Every write a call committed
// stays committed. tlsConfig nil serves plain HTTP.
func (s *Server) Serve(ctx context.Context, ln net.Listener, tlsConfig *tls.Config, t Timeouts) error {
	t = t.withDefaults()
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		IdleTimeout:       t.Idle,
		MaxHeaderBytes:    64 << 10,
		TLSConfig:         tlsConfig,
		ErrorLog:          nil,
	}
	done := make(chan error, 1)
	go func() {
		if tlsConfig != nil {
			done <- hs.ServeTLS(ln, "", "")
		} else {
			done <- hs.Serve(ln)
		}
	}()
	select {
	case err := <-done:
		return fmt.Errorf("http server stopped: %w", err)
	case <-ctx.Done():
	}
	s.stop()
	drainCtx, cancel := context.WithTimeout(context.Background(), t.Drain)
	defer cancel()
	err := hs.Shutdown(drainCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		s.log.Warn("drain timed out; closing the remaining connections", "after", t.Drain)
		hs.Close()
		err = nil
	}
	<-done
	return err
}
