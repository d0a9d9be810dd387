package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// TestServeDrainsWhenStopped: requests read before the stop signal are
// all answered, then Serve returns although the input is still open.
func TestServeDrainsWhenStopped(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	defer inW.Close()
	conn, err := StdioConn(context.Background(), inR, outW)
	if err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		served <- NewProcess(ProcessConfig{Store: fileStore(t)}).Dispatcher("test").Serve(context.Background(), conn, stop)
		outW.Close()
	}()
	const calls = 5
	var b strings.Builder
	for i := range calls {
		fmt.Fprintf(&b, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"collab_session_list","arguments":{"workspace_id":"w"}}}`+"\n", i)
	}
	// A ping is answered as it is read, so its answer says every call
	// before it was read.
	b.WriteString(`{"jsonrpc":"2.0","id":"ping","method":"ping"}` + "\n")
	if _, err := io.WriteString(inW, b.String()); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(outR)
	answered := 0
	for {
		line, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("the ping was not answered: %v", err)
		}
		if strings.Contains(line, `"id":"ping"`) {
			break
		}
		answered++
	}
	close(stop)
	for {
		if _, err := out.ReadString('\n'); err != nil {
			break
		}
		answered++
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Serve did not return after the stop signal")
	}
	if answered != calls {
		t.Fatalf("%d of %d calls answered", answered, calls)
	}
}
