package mcptest

import (
	"bytes"
	"strings"
	"sync"
	"time"
)

// WaitStderr waits until the process's stderr holds substr and returns
// what it holds. Stderr reaches the client through a pipe copied by
// another goroutine, so a line the server wrote before it answered a
// request may not have arrived when the answer does: tests wait for the
// line itself. within only bounds how long a missing line takes to fail;
// false means it never came.
func (c *Client) WaitStderr(substr string, within time.Duration) (string, bool) {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		text, grew := c.stderr.snapshot()
		if strings.Contains(text, substr) {
			return text, true
		}
		select {
		case <-grew:
		case <-deadline.C:
			return c.Stderr(), false
		}
	}
}

// lockedBuffer collects stderr; every write wakes the waiters of
// WaitStderr.
type lockedBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	grew chan struct{}
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.grew != nil {
		close(b.grew)
		b.grew = nil
	}
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// snapshot returns the text so far and a channel closed by the next write.
func (b *lockedBuffer) snapshot() (string, <-chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.grew == nil {
		b.grew = make(chan struct{})
	}
	return b.buf.String(), b.grew
}
