package main

import (
	"errors"
	"io"
	"time"
)

// Draining bounds: how long stdin's end is held back while calls finish,
// and how long the server must be idle before the end is passed on.
const (
	drainLimit = 60 * time.Second
	drainQuiet = 60 * time.Millisecond
	drainTick  = 10 * time.Millisecond
)

// drainingReader holds back the end of stdin until no tool call is in
// flight, so a client that writes its last requests and closes its pipe
// still gets every answer (the MCP SDK stops writing responses once its
// input ends). Requests already read are dispatched before the next Read,
// so a quiet period with nothing in flight means nothing is pending.
type drainingReader struct {
	r        io.Reader
	inFlight func() int64
}

func (d drainingReader) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	if !errors.Is(err, io.EOF) {
		return n, err
	}
	deadline := time.Now().Add(drainLimit)
	quietSince := time.Now()
	for time.Now().Before(deadline) {
		if d.inFlight() > 0 {
			quietSince = time.Now()
		} else if time.Since(quietSince) >= drainQuiet {
			break
		}
		time.Sleep(drainTick)
	}
	return n, err
}
