package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/seat"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// ChannelEnv names the variable that turns the Claude Code channel on
// ("1", "true" or "on"; "", "0", "false" or "off" leave it off). The
// Claude plugin's server entry sets it; nothing else does.
const ChannelEnv = place.EnvChannel

// ChannelCapability is the experimental capability a server declares so
// that Claude Code may register it as a channel.
const ChannelCapability = "claude/channel"

// ChannelMethod is the notification that pushes a message into a Claude
// Code session whose channels are enabled.
const ChannelMethod = "notifications/claude/channel"

// ChannelEnabled reads ChannelEnv's value. Any other value is an error
// naming the accepted ones, so a typo does not silently leave it off.
func ChannelEnabled(value string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(value)) {
	case "", "0", "false", "off":
		return false, nil
	case "1", "true", "on":
		return true, nil
	}
	return false, fmt.Errorf("%s must be 1 (push notices to Claude Code) or 0 (off), not %q", ChannelEnv, value)
}

// channel pushes one notifications/claude/channel per notice that concerns
// the session bound in this process, to the one stdio client of the
// process. It never moves a cursor: it follows the session from its own
// position, kept in a mark file beside the credential file so that a
// restarted follower neither repeats nor skips a notice.
type channel struct {
	p *Process

	ready     chan struct{} // closed once the client finished initialising
	readyOnce sync.Once

	mu     sync.Mutex
	conn   Conn // the client's connection, once the loop serves it
	closed bool
	run    *follower // the running follower, if any
}

// EnableChannel turns the channel on for p. Call it before ResumeFromEnv
// and Serve: initialize then declares the capability, and a session bound
// from then on is followed once the client has initialised (Serve hands
// the channel its connection). Without it p's answers are unchanged.
func (p *Process) EnableChannel() {
	p.channel = &channel{p: p, ready: make(chan struct{})}
}

// clientReady records that the client finished initialising:
// notifications/initialized, or any request other than initialize and
// ping (a client that skips the notification).
func (p *Process) clientReady() {
	if p.channel != nil {
		p.channel.markReady()
	}
}

// attach gives the channel the connection its notices go out on.
func (c *channel) attach(conn Conn) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn = conn
}

// capabilities are the server capabilities p declares.
func (p *Process) capabilities() *sdk.ServerCapabilities {
	caps := &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}}
	if p.channel != nil {
		caps.Experimental = map[string]any{ChannelCapability: map[string]any{}}
	}
	return caps
}

// bind starts following the session bound to s, replacing any earlier
// follower. It runs in the binding call's turn.
func (c *channel) bind(s *seat.Seat) {
	c.unbind(false)
	cred, ok := s.Held()
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		c.run = startFollower(c, cred, markPath(s.CredentialFile()))
	}
}

// unbind stops the follower; when the session ended here its mark goes
// too. The follower is stopped outside the lock, since a notice it is
// sending takes the lock to find the connection.
func (c *channel) unbind(ended bool) {
	c.mu.Lock()
	run := c.run
	c.run = nil
	c.mu.Unlock()
	if run == nil {
		return
	}
	run.stop()
	if ended {
		removeMark(run.mark)
	}
}

// shutdown stops the follower for good (the connection is closing).
func (c *channel) shutdown() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	c.unbind(false)
}

func (c *channel) markReady() { c.readyOnce.Do(func() { close(c.ready) }) }

// send writes one channel notification to the client.
func (c *channel) send(ctx context.Context, params channelParams) error {
	c.mu.Lock()
	conn := c.conn
	c.mu.Unlock()
	if conn == nil {
		return fmt.Errorf("no client connected")
	}
	raw, err := params.encode()
	if err != nil {
		return err
	}
	return conn.Write(ctx, &jsonrpc.Request{Method: ChannelMethod, Params: raw})
}
