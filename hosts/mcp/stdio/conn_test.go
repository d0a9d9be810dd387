package stdio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func connect(t *testing.T, in io.Reader, out io.Writer) *conn {
	t.Helper()
	c, err := (&Transport{In: in, Out: out}).Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c.(*conn)
}

func TestEndOfInputWaitsUntilEveryRequestIsAnswered(t *testing.T) {
	out := &lockedBuffer{}
	c := connect(t, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"), out)
	ctx := context.Background()
	var ids []jsonrpc.ID
	for range 2 {
		msg, err := c.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, msg.(*jsonrpc.Request).ID)
	}
	eof := make(chan error, 1)
	go func() { _, err := c.Read(ctx); eof <- err }()
	if err := c.Write(ctx, &jsonrpc.Response{ID: ids[1], Result: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-eof:
		t.Fatalf("Read ended (%v) while request 1 was unanswered", err)
	default:
	}
	if err := c.Write(ctx, &jsonrpc.Response{ID: ids[0], Result: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	if err := <-eof; !errors.Is(err, io.EOF) {
		t.Fatalf("Read after the last answer = %v, want io.EOF", err)
	}
}

func TestCloseEndsAReadWaitingForAnswers(t *testing.T) {
	c := connect(t, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), io.Discard)
	if _, err := c.Read(context.Background()); err != nil {
		t.Fatal(err)
	}
	eof := make(chan error, 1)
	go func() { _, err := c.Read(context.Background()); eof <- err }()
	c.Close()
	if err := <-eof; !errors.Is(err, io.EOF) {
		t.Fatalf("Read after Close = %v", err)
	}
}

func TestBadLinesAreAnsweredAndReadingGoesOn(t *testing.T) {
	var in strings.Builder
	for _, bad := range badLines {
		in.WriteString(bad.line + "\n")
	}
	in.WriteString(`{"jsonrpc":"2.0","id":"last","method":"ping"}` + "\n")
	out := &lockedBuffer{}
	c := connect(t, strings.NewReader(in.String()), out)
	msg, err := c.Read(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if req := msg.(*jsonrpc.Request); req.ID.Raw() != "last" {
		t.Fatalf("first message handed on is %v", req.ID.Raw())
	}
	if got := strings.Count(out.String(), "\n"); got != len(badLines) {
		t.Fatalf("%d answers to %d bad lines:\n%s", got, len(badLines), out)
	}
}

func TestADuplicateIDInFlightIsRefused(t *testing.T) {
	out := &lockedBuffer{}
	c := connect(t, strings.NewReader(strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", 2)+`{"jsonrpc":"2.0","id":2,"method":"ping"}`+"\n"), out)
	for _, want := range []int64{1, 2} {
		msg, err := c.Read(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if got := msg.(*jsonrpc.Request).ID.Raw(); got != want {
			t.Fatalf("handed on id %v, want %d", got, want)
		}
	}
	if got := out.String(); !strings.Contains(got, `"id":1,"error":{"code":-32600`) {
		t.Fatalf("duplicate not refused with its id: %s", got)
	}
}

func TestNoAnswerCarriesErrorCodeZero(t *testing.T) {
	out := &lockedBuffer{}
	c := connect(t, strings.NewReader(""), out)
	id, _ := jsonrpc.MakeID(float64(3))
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: id, Error: fmt.Errorf("uncoded failure")}); err != nil {
		t.Fatal(err)
	}
	coded := fmt.Errorf("wrapped: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"})
	if err := c.Write(context.Background(), &jsonrpc.Response{ID: id, Error: coded}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	if !strings.Contains(got, `"code":-32603,"message":"uncoded failure"`) || !strings.Contains(got, `"code":-32602`) || strings.Contains(got, `"code":0`) {
		t.Fatalf("answers: %s", got)
	}
}
