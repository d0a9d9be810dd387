package credfile_test

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/credfile"
)

func TestTokenHashMatchesContractVector(t *testing.T) {
	const want = "f33619007acc3b557cfc4e09bfa5686f7533ab93a3a625c569cff02bb43ea6ef"
	if got := credfile.TokenHash("test-only-placeholder-token"); got != want {
		t.Fatalf("TokenHash = %s, want %s", got, want)
	}
}

func TestNewTokenIs43CharUnpaddedBase64urlOf32RandomBytes(t *testing.T) {
	seen := map[string]bool{}
	for range 8 {
		tok, err := credfile.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if len(tok) != 43 || strings.ContainsAny(tok, "+/=") {
			t.Fatalf("token %q is not 43 unpadded base64url characters", tok)
		}
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) != 32 {
			t.Fatalf("token %q decodes to %d bytes (%v), want 32", tok, len(raw), err)
		}
		if seen[tok] {
			t.Fatalf("token %q repeated", tok)
		}
		seen[tok] = true
	}
}

func TestTokenMatchesOnlyTheHashedToken(t *testing.T) {
	stored := credfile.TokenHash("right-token")
	cases := []struct {
		name   string
		stored string
		token  string
		want   bool
	}{
		{"same token", stored, "right-token", true},
		{"uppercase hex of same hash", strings.ToUpper(stored), "right-token", true},
		{"other token", stored, "wrong-token", false},
		{"empty token", stored, "", false},
		{"missing stored hash", "", "right-token", false},
		{"all-zero stored hash", strings.Repeat("0", 64), "right-token", false},
		{"truncated stored hash", stored[:62], "right-token", false},
		{"non-hex stored hash", "zz" + stored[2:], "right-token", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := credfile.TokenMatches(tc.stored, tc.token); got != tc.want {
				t.Fatalf("TokenMatches = %v, want %v", got, tc.want)
			}
		})
	}
}
