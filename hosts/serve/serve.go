// Package serve is the binary as a server: MCP over stdio for the host that
// launches it, Streamable HTTP for many clients (serve), and the bearer
// tokens HTTP clients present (token).
package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/mcp"
	sdkmcp "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Stdio runs the MCP stdio server, reporting version, until stdin closes (every request read
// by then is answered first) or ctx is cancelled. stdout carries JSON-RPC
// only; every diagnostic goes to stderr. It exits non-zero when stdin or
// stdout breaks, never because of what a line holds.
func Stdio(ctx context.Context, version string, stdin io.Reader, stdout, stderr io.Writer) int {
	if _, err := mcp.SelectTools(os.Getenv(mcp.ToolsEnv)); err != nil {
		return command.Failure(stderr, err)
	}
	channel, err := mcp.ChannelEnabled(os.Getenv(mcp.ChannelEnv))
	if err != nil {
		return command.Failure(stderr, err)
	}
	choice, err := place.Database(place.OS())
	if err != nil {
		return command.Failure(stderr, err)
	}
	firstRunHint(stdin, stderr, choice.Path)
	st, err := store.Open(ctx, store.Options{Path: choice.Path, Synchronous: os.Getenv(place.EnvSynchronous)})
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer st.Close()
	links := newLinkWriter(st.Path(), stderr)
	defer links.close()
	proc := mcp.NewProcess(mcp.ProcessConfig{Store: st, Getenv: os.Getenv, Stopping: ctx.Done(),
		OnBind: links.bound, OnUnbind: links.unbound})
	if links != nil {
		links.proc = proc
	}
	transport := mcp.DrainOnStop(mcp.StdioTransport(stdin, stdout), ctx.Done())
	if channel {
		transport = proc.EnableChannel(transport)
	}
	transport = proc.ServeCallsDirectly(transport)
	resumed, err := proc.ResumeFromEnv(ctx)
	if err != nil {
		return command.Failure(stderr, err)
	}
	server := mcp.NewServer(version, proc)
	session, err := server.Connect(ctx, transport, nil)
	if err != nil {
		return command.Failure(stderr, err)
	}
	kind := "local SQLite journal"
	if place.IsPostgres(choice.Path) {
		kind = "PostgreSQL journal " + st.Path()
	}
	if resumed {
		fmt.Fprintf(stderr, "· agenttool-collab MCP ready (%s, session resumed)\n", kind)
	} else {
		fmt.Fprintf(stderr, "· agenttool-collab MCP ready (%s)\n", kind)
	}
	// A malformed line never gets here (the transport answers it and reads
	// on); an error here means stdin or stdout itself broke.
	if err := waitOrStop(ctx, session); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		fmt.Fprintf(stderr, "✖ MCP transport failed: %v\n", err)
		return 1
	}
	return 0
}

// stopGrace bounds how long a signalled server waits for its session to
// wind down (calls in flight answer within it; each is one transaction).
const stopGrace = 5 * time.Second

// waitOrStop waits for the session to end. Once ctx ends (SIGINT,
// SIGTERM) the transport stops reading and ends the session as soon as
// every call it took is answered; a session still open after stopGrace is
// closed without waiting: a read blocked on a terminal or an idle pipe
// cannot be interrupted, and must not keep a signalled server alive.
func waitOrStop(ctx context.Context, session *sdkmcp.ServerSession) error {
	done := make(chan error, 1)
	go func() { done <- session.Wait() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	select {
	case err := <-done:
		return err
	case <-time.After(stopGrace):
	}
	// Close itself waits for the read loop, which a blocked read of a
	// terminal never ends: it must not hold the exit either.
	go session.Close()
	return nil
}
