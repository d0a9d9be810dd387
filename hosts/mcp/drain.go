package mcp

import (
	"context"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DrainOnStop wraps a stdio transport so that a signalled server ends its
// connection the way the end of input does: once stop is closed it reads
// no further message, lets every request it already handed out be
// answered (a collab_wait answers at once, reason shutdown, when the
// process's Stopping is the same signal), and only then reports the end
// of input. Without it the SDK stopped reading and refused every answer
// still to be written, so a pending wait was dropped unanswered.
func DrainOnStop(t sdk.Transport, stop <-chan struct{}) sdk.Transport {
	return &drainTransport{inner: t, stop: stop}
}

type drainTransport struct {
	inner sdk.Transport
	stop  <-chan struct{}
}

func (t *drainTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	conn, err := t.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	stopped, cancel := context.WithCancel(context.Background())
	d := &drainConn{Connection: conn, stopped: stopped, closed: make(chan struct{}), idle: make(chan struct{}, 1)}
	go func() {
		select {
		case <-t.stop:
		case <-d.closed:
		}
		cancel()
	}()
	return d, nil
}

// drainConn counts the requests it handed to the SDK and not yet answered.
type drainConn struct {
	sdk.Connection
	stopped context.Context // ends when the stop signal arrives
	closed  chan struct{}
	once    sync.Once

	mu      sync.Mutex
	pending int
	idle    chan struct{} // signalled when pending drops to zero
}

// Read returns the next message until the stop signal; then it waits for
// every request it returned to be answered and reports io.EOF.
func (d *drainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	if d.stopped.Err() == nil {
		rctx := d.stopped
		if ctx.Done() != nil {
			var cancel context.CancelFunc
			rctx, cancel = context.WithCancel(ctx)
			defer context.AfterFunc(d.stopped, cancel)()
			defer cancel()
		}
		msg, err := d.Connection.Read(rctx)
		if err == nil {
			if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
				d.mu.Lock()
				d.pending++
				d.mu.Unlock()
			}
			return msg, nil
		}
		if d.stopped.Err() == nil {
			return nil, err
		}
	}
	for {
		d.mu.Lock()
		n := d.pending
		d.mu.Unlock()
		if n == 0 {
			return nil, io.EOF
		}
		select {
		case <-d.idle:
		case <-d.closed:
			return nil, io.EOF
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Write sends msg; an answer settles one pending request.
func (d *drainConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	err := d.Connection.Write(ctx, msg)
	if _, ok := msg.(*jsonrpc.Response); ok {
		d.mu.Lock()
		if d.pending > 0 {
			d.pending--
		}
		if d.pending == 0 {
			select {
			case d.idle <- struct{}{}:
			default:
			}
		}
		d.mu.Unlock()
	}
	return err
}

// Close closes the inner connection and ends any drain in progress.
func (d *drainConn) Close() error {
	d.once.Do(func() { close(d.closed) })
	return d.Connection.Close()
}
