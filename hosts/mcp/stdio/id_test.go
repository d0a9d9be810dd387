package stdio

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestEveryIDIsAnsweredWithTheClientsText decodes a request with each
// kind of id and encodes the answer the SDK would give it (a result and
// an error): the id on the wire is the client's text, except that an
// integer written with a fraction or an exponent is answered in its plain
// form, as the reference answers it.
func TestEveryIDIsAnsweredWithTheClientsText(t *testing.T) {
	for _, tc := range []struct{ id, want string }{
		{`1`, `1`},
		{`-9007199254740991`, `-9007199254740991`},
		{`9007199254740991`, `9007199254740991`},
		{`9007199254740993`, `9007199254740993`},
		{`9007199254740990.5`, `9007199254740990.5`},
		{`1.5`, `1.5`},
		{`-0.25`, `-0.25`},
		{`12345678901234567890123`, `12345678901234567890123`},
		{`1e400`, `1e400`},
		{`1e-400`, `1e-400`},
		{`1e3`, `1000`},
		{`7.0`, `7`},
		{`1.5e1`, `15`},
		{`1000e-3`, `1`},
		{`-0`, `0`},
		{`0e99999999999`, `0`},
		{`"s"`, `"s"`},
		{`""`, `""`},
		{`"\u0000collab-held-id:1"`, `"\u0000collab-held-id:1"`},
		{`"\u0000collab-held-id:1,\"x\":2"`, `"\u0000collab-held-id:1,\"x\":2"`},
	} {
		t.Run(tc.id, func(t *testing.T) {
			msg, rej := Decode(Frame{Line: []byte(`{"jsonrpc":"2.0","id":` + tc.id + `,"method":"ping"}`)}, DefaultMaxLineBytes)
			if rej != nil {
				t.Fatalf("refused: %s", rej.Message)
			}
			id := msg.(*jsonrpc.Request).ID
			for _, resp := range []*jsonrpc.Response{
				{ID: id, Result: []byte(`{}`)},
				{ID: id, Error: &jsonrpc.Error{Code: -32601, Message: "no"}},
			} {
				data, err := EncodeResponse(resp)
				if err != nil {
					t.Fatal(err)
				}
				if want := `"id":` + tc.want + `,`; !strings.Contains(string(data), want) {
					t.Errorf("answer %s does not carry %s", data, want)
				}
			}
		})
	}
}

// TestIDsTheSDKCannotHoldAreNotConfused checks that two ids the SDK's
// float64 reading would merge stay apart, and that a cancellation names
// the request it names in the client's text.
func TestIDsTheSDKCannotHoldAreNotConfused(t *testing.T) {
	decode := func(line string) jsonrpc.Message {
		msg, rej := Decode(Frame{Line: []byte(line)}, DefaultMaxLineBytes)
		if rej != nil {
			t.Fatalf("%s refused: %s", line, rej.Message)
		}
		return msg
	}
	a := decode(`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`).(*jsonrpc.Request).ID
	b := decode(`{"jsonrpc":"2.0","id":9007199254740992,"method":"ping"}`).(*jsonrpc.Request).ID
	if a == b {
		t.Fatalf("9007199254740993 and 9007199254740992 are held as the same id %v", a.Raw())
	}
	c := decode(`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`).(*jsonrpc.Request).ID
	if c == decode(`{"jsonrpc":"2.0","id":1,"method":"ping"}`).(*jsonrpc.Request).ID {
		t.Fatal("1.5 and 1 are held as the same id")
	}
	got, ok := CancelledID(decode(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1.5,"reason":"x"}}`))
	if !ok || got != c {
		t.Fatalf("cancellation of 1.5 names %v (%v), want %v", got.Raw(), ok, c.Raw())
	}
	got, ok = CancelledID(decode(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1e3}}`))
	if !ok || got.Raw() != int64(1000) {
		t.Fatalf("cancellation of 1e3 names %v, want 1000", got.Raw())
	}
}
