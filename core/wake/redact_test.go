package wake

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/tokens"
)

func TestRedactRemovesEveryTokenShapedWordAndNothingElse(t *testing.T) {
	session, err := credfile.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	http, err := tokens.Add(filepath.Join(t.TempDir(), tokens.FileName), "ci", 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	kebab := strings.Repeat("ab-", 14) + "c" // 43 characters, one case
	mixed := "Ab0" + strings.Repeat("x", 40) // 43 characters, both cases
	cases := []struct{ name, in, want string }{
		{"session token alone", session, Redacted},
		{"after = and before .", "token=" + session + ".", "token=" + Redacted + "."},
		{"in JSON", `{"session_token":"` + session + `"}`, `{"session_token":"` + Redacted + `"}`},
		{"bearer token", "Authorization: Bearer " + http, "Authorization: Bearer " + Redacted},
		{"bearer token glued to a name", "CI_" + http, "CI_" + Redacted},
		{"both, on two lines", session + "\n" + http, Redacted + "\n" + Redacted},
		{"43 mixed-case characters", mixed, Redacted},
		{"43-character kebab-case name", kebab, kebab},
		{"42 characters", session[:42], session[:42]},
		{"44 characters", session + "A", session + "A"},
		{"a SHA-256", strings.Repeat("0a", 32), strings.Repeat("0a", 32)},
		{"a tool name", "call collab_session_start", "call collab_session_start"},
		{"plain text", "please finish t1 — call collab_next", "please finish t1 — call collab_next"},
	}
	for _, c := range cases {
		if got := Redact(c.in); got != c.want {
			t.Errorf("%s: Redact(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// Every token either kind of issuer makes is caught, not just most.
func TestRedactCatchesEveryIssuedToken(t *testing.T) {
	for i := range 2000 {
		tok, err := credfile.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []string{tok, tokens.Prefix + tok} {
			if got := Redact("x " + s + " y"); got != "x "+Redacted+" y" {
				t.Fatalf("token %d %q came through as %q", i, s, got)
			}
		}
	}
}

// A notice built from a long body never keeps part of a token that the
// clip to one line would otherwise cut.
func TestNoticeTextNeverHoldsPartOfAToken(t *testing.T) {
	tok, _ := credfile.NewToken()
	body := strings.Repeat("word ", 14) + tok
	if got := clip(body); strings.Contains(got, tok[:10]) {
		t.Fatalf("clip kept part of the token: %q", got)
	}
}
