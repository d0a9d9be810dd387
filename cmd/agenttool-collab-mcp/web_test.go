package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/place"
)

func TestWebCommandFlagsAndRefusals(t *testing.T) {
	t.Setenv(place.EnvWebToken, "")
	cases := []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"unknown flag exits 2", []string{"web", "--bogus"}, 2, "usage:"},
		{"non-loopback bind without the flag is refused", []string{"web", "--addr", "0.0.0.0:0"}, 2, "refusing to listen on 0.0.0.0:0"},
		{"non-loopback bind without a token is refused", []string{"web", "--addr", "0.0.0.0:0", "--allow-remote"}, 2, place.EnvWebToken},
		{"every interface counts as non-loopback", []string{"web", "--addr", ":0", "--allow-remote"}, 2, "refusing"},
		{"a malformed address is refused", []string{"web", "--addr", "nowhere"}, 2, "--addr"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), c.args, strings.NewReader(""), &out, &errb)
			if code != c.code || !strings.Contains(errb.String(), c.stderr) {
				t.Fatalf("exit %d (want %d); stderr:\n%s", code, c.code, errb.String())
			}
			if strings.Contains(out.String(), "serving") {
				t.Fatal("it served anyway")
			}
		})
	}
}
