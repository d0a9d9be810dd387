package stdio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxLineBytes is the longest line the transport accepts. The
// largest legitimate call (128 evidence references of 2,000 characters,
// every one \u-escaped) is under 2 MiB.
const DefaultMaxLineBytes = 8 << 20

// Transport serves MCP over newline-delimited JSON-RPC on In and Out.
type Transport struct {
	In  io.Reader
	Out io.Writer
	// MaxLineBytes bounds one line; 0 means DefaultMaxLineBytes.
	MaxLineBytes int
}

// Connect starts reading In. Call it once.
func (t *Transport) Connect(context.Context) (sdk.Connection, error) {
	limit := t.MaxLineBytes
	if limit <= 0 {
		limit = DefaultMaxLineBytes
	}
	c := &conn{
		limit:   limit,
		out:     t.Out,
		frames:  make(chan frameOrErr),
		closed:  make(chan struct{}),
		drained: make(chan struct{}),
		pending: map[jsonrpc.ID]*pendingCall{},
	}
	go c.readFrames(NewFramer(t.In, limit))
	return c, nil
}

type frameOrErr struct {
	frame Frame
	err   error
}

// conn is one stdio connection. Reads happen on one goroutine (the
// server loop's), writes on any.
type conn struct {
	limit  int
	frames chan frameOrErr

	writeMu sync.Mutex
	out     io.Writer

	mu      sync.Mutex
	pending map[jsonrpc.ID]*pendingCall // requests handed to the server and not yet answered
	atEOF   bool
	drained chan struct{} // closed once atEOF and nothing is pending

	closeOnce sync.Once
	closed    chan struct{}
}

// readFrames feeds frames to Read until the input ends or breaks. It runs
// on its own goroutine so that Close can interrupt a Read blocked on
// input that never comes.
func (c *conn) readFrames(f *Framer) {
	for {
		frame, err := f.Next()
		select {
		case c.frames <- frameOrErr{frame, err}:
		case <-c.closed:
			return
		}
		if err != nil {
			return
		}
	}
}

// Read returns the next well-formed message. Every malformed line is
// answered here with a JSON-RPC error and skipped. At the end of input it
// returns io.EOF only once every request it returned has been answered.
func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		var next frameOrErr
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.closed:
			return nil, io.EOF
		case next = <-c.frames:
		}
		if errors.Is(next.err, io.EOF) {
			return nil, c.drain(ctx)
		}
		if next.err != nil {
			return nil, fmt.Errorf("read MCP input: %w", next.err)
		}
		msg, rej := Decode(next.frame, c.limit)
		if rej == nil && msg != nil {
			rej = c.track(msg)
			c.noteCancel(msg)
		}
		if rej != nil {
			if err := c.writeRejection(rej); err != nil {
				return nil, err
			}
			continue
		}
		if msg != nil {
			return msg, nil
		}
	}
}

// track records a request that needs an answer; a second request with
// the id of one still being answered is refused, since its answer could
// not be told apart.
func (c *conn) track(msg jsonrpc.Message) *Rejection {
	req, ok := msg.(*jsonrpc.Request)
	if !ok || !req.IsCall() {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending[req.ID] != nil {
		id, held := WireID(req.ID)
		if !held {
			id, _ = json.Marshal(req.ID.Raw())
		}
		return reject(id, jsonrpc.CodeInvalidRequest, "Invalid Request: id %s is already in use by a request not yet answered", id)
	}
	c.pending[req.ID] = &pendingCall{method: req.Method}
	return nil
}

// pendingCall is a request handed to the server and not yet answered.
type pendingCall struct {
	method    string
	cancelled bool // the client cancelled it: its answer is not written
}

// noteCancel marks the request a notifications/cancelled names, if it is
// still pending: the MCP specification asks that a cancelled request get
// no answer. An initialize cannot be cancelled.
func (c *conn) noteCancel(msg jsonrpc.Message) {
	id, ok := CancelledID(msg)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.pending[id]; p != nil && p.method != "initialize" {
		p.cancelled = true
	}
}

// drain waits until every pending request is answered (or the connection
// is closed) and then reports the end of input.
func (c *conn) drain(ctx context.Context) error {
	c.mu.Lock()
	if !c.atEOF {
		c.atEOF = true
		if len(c.pending) == 0 {
			close(c.drained)
		}
	}
	c.mu.Unlock()
	select {
	case <-c.drained:
	case <-c.closed:
	case <-ctx.Done():
		return ctx.Err()
	}
	return io.EOF
}

// Write sends one message. A response settles its request; an error
// without a JSON-RPC code (code 0) is sent as an internal error instead.
func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if c.settle(resp.ID) {
			return nil // cancelled by the client: no answer
		}
		line := linePool.Get().(*bytes.Buffer)
		line.Reset()
		fast := appendResult(line, resp)
		var err error
		if fast {
			err = c.writeRaw(line.Bytes())
		}
		if line.Cap() <= maxPooledLine {
			linePool.Put(line)
		}
		if fast {
			return err
		}
		data, err := EncodeResponse(resp)
		if err != nil {
			return err
		}
		return c.writeLine(data)
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("encode MCP message: %w", err)
	}
	return c.writeLine(data)
}

// settle forgets an answered request and reports whether the client had
// cancelled it.
func (c *conn) settle(id jsonrpc.ID) (cancelled bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.pending[id]; p != nil {
		cancelled = p.cancelled
	}
	delete(c.pending, id)
	if c.atEOF && len(c.pending) == 0 {
		select {
		case <-c.drained:
		default:
			close(c.drained)
		}
	}
	return cancelled
}

// withErrorCode returns resp, or a copy whose error carries
// CodeInternalError where the code was left at 0.
func withErrorCode(resp *jsonrpc.Response) *jsonrpc.Response {
	if resp.Error == nil {
		return resp
	}
	var wire *jsonrpc.Error
	if errors.As(resp.Error, &wire) && wire.Code != 0 {
		return resp
	}
	fixed := *resp
	fixed.Error = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: resp.Error.Error()}
	return &fixed
}

func (c *conn) writeRejection(r *Rejection) error {
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode JSON-RPC error: %w", err)
	}
	return c.writeLine(data)
}

// writeLine writes one message and its newline as a single write, so
// concurrent writers never interleave.
func (c *conn) writeLine(data []byte) error {
	return c.writeRaw(append(data, '\n'))
}

// writeRaw writes one message that already ends in its newline.
func (c *conn) writeRaw(line []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	if _, err := c.out.Write(line); err != nil {
		return fmt.Errorf("write MCP output: %w", err)
	}
	return nil
}

// Close stops reading; it is safe to call more than once and from any
// goroutine.
func (c *conn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

// SessionID is empty: a stdio connection has no session header.
func (c *conn) SessionID() string { return "" }
