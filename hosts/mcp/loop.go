package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// Conn is one client's message connection, as the stdio transport
// (stdio.Transport) gives it: Read returns the next well-formed message
// (the transport answers malformed input itself) and io.EOF once the
// input ended and every request it returned was answered; Write sends
// one message and may be called from any goroutine.
type Conn interface {
	Read(ctx context.Context) (jsonrpc.Message, error)
	Write(ctx context.Context, msg jsonrpc.Message) error
	Close() error
}

// Serve is the MCP server loop of one client connection: it reads each
// message, hands every request to the dispatcher and writes its answer,
// until the input ends or stop is closed. Then it reads no further
// message, lets every request already read be answered (a collab_wait
// answers at once, reason shutdown, when the process's Stopping is the
// same signal) and returns nil. It returns the error of a connection
// that broke.
//
// Calls run in the order they arrived, one at a time, on one worker: a
// client that sends a session start and, without waiting, calls that
// need the session finds them run in that order. A call to a tool that
// waits runs beside the others (it takes the turn only to read the
// binding), and initialize, ping and tools/list are answered as they are
// read. A notifications/cancelled ends the named call's context; the
// transport writes no answer for a cancelled request.
func (d *Dispatcher) Serve(ctx context.Context, conn Conn, stop <-chan struct{}) error {
	if d.p.channel != nil {
		d.p.channel.attach(conn)
		defer d.p.channel.shutdown()
	}
	l := newLoop(d, conn, context.WithoutCancel(ctx))
	defer conn.Close()
	defer l.stopCalls()
	readCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-stop:
		case <-readCtx.Done():
		}
		cancel()
	}()
	for {
		msg, err := conn.Read(readCtx)
		if err != nil {
			l.wg.Wait()
			if errors.Is(err, io.EOF) || readCtx.Err() != nil {
				return nil
			}
			return err
		}
		l.take(msg)
	}
}

// loop is the state of one Serve: the calls waiting for the worker and
// the calls in flight, by id.
type loop struct {
	d    *Dispatcher
	conn Conn
	// ctx is the calls' context: the caller's values, never its
	// cancellation (a drain lets calls finish); stopCalls ends it.
	ctx       context.Context
	stopCalls context.CancelFunc
	// wg counts the requests read and not yet answered.
	wg sync.WaitGroup
	// arrived wakes the worker when a call is queued.
	arrived chan struct{}

	mu       sync.Mutex
	queue    []queuedCall
	inflight map[jsonrpc.ID]context.CancelFunc
}

// queuedCall is one call read, waiting for its turn or running.
type queuedCall struct {
	req *jsonrpc.Request
	ctx context.Context
}

func newLoop(d *Dispatcher, conn Conn, ctx context.Context) *loop {
	l := &loop{d: d, conn: conn, arrived: make(chan struct{}, 1), inflight: map[jsonrpc.ID]context.CancelFunc{}}
	l.ctx, l.stopCalls = context.WithCancel(ctx)
	go l.work()
	return l
}

// take acts on one message read.
func (l *loop) take(msg jsonrpc.Message) {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return // a response: this server sends no request to answer
	}
	if !req.IsCall() {
		if id, cancelled := stdio.CancelledID(req); cancelled {
			l.cancel(id)
			return
		}
		l.d.Notice(req)
		return
	}
	switch {
	case req.Method != methodToolsCall:
		l.wg.Add(1)
		l.answer(l.ctx, req, false)
	case l.d.Waits(req):
		ctx := l.track(req.ID)
		go l.answer(ctx, req, true)
	default:
		ctx := l.track(req.ID)
		l.mu.Lock()
		l.queue = append(l.queue, queuedCall{req: req, ctx: ctx})
		l.mu.Unlock()
		select {
		case l.arrived <- struct{}{}:
		default:
		}
	}
}

// track counts a call and gives it a context that a cancellation ends.
func (l *loop) track(id jsonrpc.ID) context.Context {
	ctx, cancel := context.WithCancel(l.ctx)
	l.wg.Add(1)
	l.mu.Lock()
	l.inflight[id] = cancel
	l.mu.Unlock()
	return ctx
}

// cancel ends the context of the call id, if it is in flight.
func (l *loop) cancel(id jsonrpc.ID) {
	l.mu.Lock()
	cancel := l.inflight[id]
	l.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// work runs the queued calls one at a time, in order, until the loop ends.
func (l *loop) work() {
	for {
		select {
		case <-l.arrived:
		case <-l.ctx.Done():
			return
		}
		for {
			l.mu.Lock()
			if len(l.queue) == 0 {
				l.mu.Unlock()
				break
			}
			c := l.queue[0]
			l.queue = l.queue[1:]
			l.mu.Unlock()
			l.answer(c.ctx, c.req, true)
		}
	}
}

// answer dispatches one counted request and writes its answer; a call
// (tracked) is forgotten first. The answer is handed to the connection
// even when the call was cancelled, so the transport settles the request
// (it writes nothing for a cancelled one); a write that fails means the
// connection broke, which its reader reports.
func (l *loop) answer(ctx context.Context, req *jsonrpc.Request, tracked bool) {
	defer l.wg.Done()
	resp := l.d.Answer(ctx, req)
	if tracked {
		l.mu.Lock()
		cancel := l.inflight[req.ID]
		delete(l.inflight, req.ID)
		l.mu.Unlock()
		if cancel != nil {
			cancel()
		}
	}
	_ = l.conn.Write(l.ctx, resp)
}

// StdioConn is the stdio connection to a client on in and out
// (newline-delimited JSON-RPC, see package stdio), for Serve.
func StdioConn(ctx context.Context, in io.Reader, out io.Writer) (Conn, error) {
	conn, err := (&stdio.Transport{In: in, Out: out}).Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect the stdio transport: %w", err)
	}
	return conn, nil
}
