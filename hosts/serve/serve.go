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

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/liveness"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/command"
	"github.com/agenttool/collab/hosts/mcp"
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
	st, err := backend.Open(ctx, backend.Options{Path: choice.Path, Synchronous: os.Getenv(place.EnvSynchronous)})
	if err != nil {
		return command.Failure(stderr, err)
	}
	defer st.Close()
	links := newLinkWriter(st.Path(), stderr)
	defer links.close()
	holder := liveness.Holder(store.HostStdio)
	proc := mcp.NewProcess(mcp.ProcessConfig{Store: st, Getenv: os.Getenv, Stopping: ctx.Done(),
		OnBind: links.bound, OnUnbind: links.unbound, Host: &holder})
	if links != nil {
		links.proc = proc
	}
	if channel {
		proc.EnableChannel()
	}
	resumed, err := proc.ResumeFromEnv(ctx)
	if err != nil {
		return command.Failure(stderr, err)
	}
	conn, err := mcp.StdioConn(ctx, stdin, stdout)
	if err != nil {
		return command.Failure(stderr, err)
	}
	done := make(chan error, 1)
	go func() { done <- proc.Dispatcher(version).Serve(ctx, conn, ctx.Done()) }()
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
	if err := waitOrStop(ctx, done); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		fmt.Fprintf(stderr, "✖ MCP transport failed: %v\n", err)
		return 1
	}
	return 0
}

// stopGrace bounds how long a signalled server waits for its session to
// wind down (calls in flight answer within it; each is one transaction).
const stopGrace = 5 * time.Second

// waitOrStop waits for the server loop to end. Once ctx ends (SIGINT,
// SIGTERM) the loop stops reading and ends as soon as every call it took
// is answered; a loop still running after stopGrace is left behind: a
// read blocked on a terminal or an idle pipe cannot be interrupted, and
// must not keep a signalled server alive.
func waitOrStop(ctx context.Context, done <-chan error) error {
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
	return nil
}
