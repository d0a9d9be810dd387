package mcp

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// channelTransport hands the channel the connection it makes.
type channelTransport struct {
	inner sdk.Transport
	c     *channel
}

func (t *channelTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.c.mu.Lock()
	t.c.conn = conn
	t.c.mu.Unlock()
	return &channelConn{Connection: conn, c: t.c}, nil
}

// channelConn watches the client's messages for the end of its
// initialisation: notifications/initialized, or any request other than
// initialize and ping (a client that skips the notification).
type channelConn struct {
	sdk.Connection
	c *channel
}

func (cc *channelConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := cc.Connection.Read(ctx)
	if req, ok := msg.(*jsonrpc.Request); ok && err == nil {
		switch {
		case req.Method == "notifications/initialized":
			cc.c.markReady()
		case req.IsCall() && req.Method != "initialize" && req.Method != "ping":
			cc.c.markReady()
		}
	}
	return msg, err
}

func (cc *channelConn) Close() error {
	cc.c.shutdown()
	return cc.Connection.Close()
}
