package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// serve refuses unsafe exposures before opening anything, and every
// command answers -h with 0 and an unknown flag with 2.
func TestServeAndTokenCommandLine(t *testing.T) {
	sb := newSandbox(t)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"all interfaces without tls", []string{"serve", "--http", "0.0.0.0:0"}, 2, "without TLS"},
		{"no auth off loopback", []string{"serve", "--http", "0.0.0.0:0", "--insecure-plaintext", "--no-auth-on-loopback"}, 2, "loopback addresses only"},
		{"half a tls pair", []string{"serve", "--tls-cert", "x.pem"}, 2, "both --tls-cert and --tls-key"},
		{"serve help", []string{"serve", "-h"}, 0, ""},
		{"serve unknown flag", []string{"serve", "--bogus"}, 2, ""},
		{"token help", []string{"token", "--help"}, 0, ""},
		{"token unknown action", []string{"token", "steal"}, 2, "unknown action"},
		{"token unknown flag", []string{"token", "list", "--bogus"}, 2, ""},
		{"token add without name", []string{"token", "add"}, 2, "usage"},
		{"bad expiry", []string{"token", "add", "x", "--expires", "soon", "--db", sb.db}, 2, "--expires"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), c.args, nil, &out, &errOut)
			if code != c.code || !strings.Contains(out.String()+errOut.String(), c.want) {
				t.Fatalf("exit %d, want %d; output:\n%s%s", code, c.code, out.String(), errOut.String())
			}
		})
	}
	if _, err := os.Stat(sb.db); err == nil {
		t.Fatal("a refused command created the database")
	}
}

// token add prints the token once and keeps only its hash; list shows
// names, never tokens; revoke removes one.
func TestTokenAddListRevoke(t *testing.T) {
	sb := newSandbox(t)
	tok := sb.token("alice")
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"token", "add", "bob", "--expires", "30d", "--db", sb.db, "--json"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("add --json: %d %s", code, errOut.String())
	}
	var added map[string]string
	if err := json.Unmarshal(out.Bytes(), &added); err != nil || added["name"] != "bob" || !strings.HasPrefix(added["token"], "collab_") {
		t.Fatalf("add --json printed %q", out.String())
	}
	raw, err := os.ReadFile(filepath.Join(filepath.Dir(sb.db), "collab-tokens.json"))
	if err != nil || strings.Contains(string(raw), tok) || strings.Contains(string(raw), added["token"]) {
		t.Fatalf("token file holds a token (or is missing: %v)", err)
	}
	out.Reset()
	run(context.Background(), []string{"token", "list", "--db", sb.db}, nil, &out, &errOut)
	if !strings.Contains(out.String(), "alice") || !strings.Contains(out.String(), "bob") || strings.Contains(out.String(), "collab_") {
		t.Fatalf("list:\n%s", out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"token", "revoke", "alice", "--db", sb.db}, nil, &out, &errOut); code != 0 {
		t.Fatalf("revoke: %d %s", code, errOut.String())
	}
	if code := run(context.Background(), []string{"token", "revoke", "alice", "--db", sb.db}, nil, &out, &errOut); code != 1 {
		t.Fatalf("revoking twice exited %d, want 1", code)
	}
}
