package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/dbpath"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/mcp"
)

// osEnv reads the real process environment.
func osEnv() dbpath.Env {
	return dbpath.Env{LookupEnv: os.LookupEnv, Home: os.UserHomeDir, Cwd: os.Getwd}
}

// serve runs the MCP stdio server until stdin closes or ctx is cancelled.
// stdout carries JSON-RPC only; every diagnostic goes to stderr.
func serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer) int {
	if _, err := mcp.SelectTools(os.Getenv(mcp.ToolsEnv)); err != nil {
		return fail(stderr, err)
	}
	choice, err := dbpath.Resolve(osEnv())
	if err != nil {
		return fail(stderr, err)
	}
	st, err := store.Open(ctx, store.Options{Path: choice.Path, Synchronous: os.Getenv("AGENTOOL_COLLAB_SYNCHRONOUS")})
	if err != nil {
		return fail(stderr, err)
	}
	defer st.Close()
	proc := mcp.NewProcess(mcp.ProcessConfig{Store: st, Getenv: os.Getenv})
	resumed, err := proc.ResumeFromEnv(ctx)
	if err != nil {
		return fail(stderr, err)
	}
	server := mcp.NewServer(version, proc)
	transport := &sdk.IOTransport{Reader: io.NopCloser(drainingReader{r: stdin, inFlight: proc.InFlight}), Writer: nopCloser{stdout}}
	session, err := server.Connect(ctx, transport, nil)
	if err != nil {
		return fail(stderr, err)
	}
	go func() {
		<-ctx.Done()
		session.Close()
	}()
	if resumed {
		fmt.Fprintln(stderr, "· agenttool-collab MCP ready (local SQLite journal, session resumed)")
	} else {
		fmt.Fprintln(stderr, "· agenttool-collab MCP ready (local SQLite journal)")
	}
	if err := session.Wait(); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		fmt.Fprintf(stderr, "agenttool-collab-mcp: %v\n", err)
	}
	return 0
}

// fail reports a startup failure on stderr and returns the exit status.
func fail(stderr io.Writer, err error) int {
	if ce, ok := collaberr.As(err); ok {
		fmt.Fprintf(stderr, "✖ %s (%s)\n", ce.Message, ce.Code)
	} else {
		fmt.Fprintf(stderr, "✖ %v\n", err)
	}
	return 1
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }
