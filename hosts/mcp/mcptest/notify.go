package mcptest

import (
	"encoding/json"
	"fmt"
	"time"
)

// keepNote keeps msg if it is a notification (a method and no id).
func (c *Client) keepNote(msg map[string]any, line []byte) {
	if _, hasID := msg["id"]; hasID {
		return
	}
	if _, ok := msg["method"].(string); ok {
		msg["_raw"] = string(line)
		c.notes = append(c.notes, msg)
	}
}

// takeNote removes and returns the first kept notification of method.
func (c *Client) takeNote(method string) map[string]any {
	for i, n := range c.notes {
		if n["method"] == method {
			c.notes = append(c.notes[:i], c.notes[i+1:]...)
			return n
		}
	}
	return nil
}

// Notifications removes and returns every notification of method the
// client has read so far (while waiting for answers, or in
// WaitNotification), oldest first.
func (c *Client) Notifications(method string) []map[string]any {
	var out []map[string]any
	for n := c.takeNote(method); n != nil; n = c.takeNote(method) {
		out = append(out, n)
	}
	return out
}

// Flush makes one round trip (a ping), so that every notification the
// server wrote before answering it has been read and kept.
func (c *Client) Flush() error {
	_, err := c.request("ping", map[string]any{})
	return err
}

// WaitNotification returns the next notification of method: one already
// read, else the next one the server writes. It reads nothing but
// notifications, so call it only while no request is outstanding. After
// a timeout the client cannot be used any more (a read is left pending).
func (c *Client) WaitNotification(method string, timeout time.Duration) (map[string]any, error) {
	if n := c.takeNote(method); n != nil {
		return n, nil
	}
	type result struct {
		msg map[string]any
		err error
	}
	got := make(chan result, 1)
	go func() {
		for {
			line, err := c.out.ReadBytes('\n')
			if err != nil {
				got <- result{err: fmt.Errorf("read notification: %w", err)}
				return
			}
			var msg map[string]any
			if err := json.Unmarshal(line, &msg); err != nil {
				got <- result{err: fmt.Errorf("stdout carried a non-JSON line %q: %w", line, err)}
				return
			}
			c.keepNote(msg, line)
			if n := c.takeNote(method); n != nil {
				got <- result{msg: n}
				return
			}
		}
	}()
	select {
	case r := <-got:
		return r.msg, r.err
	case <-time.After(timeout):
		return nil, fmt.Errorf("no %s notification within %s", method, timeout)
	}
}
