package normalize_test

import (
	"slices"
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

func TestRuntimeKindIsTrimmedAndLowerCased(t *testing.T) {
	cases := []struct{ in, want string }{
		{"claude-code", "claude-code"},
		{"  Codex.CLI:1.2_beta  ", "codex.cli:1.2_beta"},
		{"\u212Aernel", "kernel"}, // KELVIN SIGN lowers to ASCII k in JavaScript
		{repeat("A", 64), repeat("a", 64)},
	}
	for _, c := range cases {
		if got, err := normalize.RuntimeKind(c.in); err != nil || got != c.want {
			t.Errorf("RuntimeKind(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestRuntimeKindRefusals(t *testing.T) {
	cases := []struct{ name, in, hint string }{
		{"capital I with dot lowers to i + U+0307", "\u0130de", "symbolic"},
		{"free text", "my runtime", "symbolic"},
		{"leading dash", "-x", "symbolic"},
		{"65 characters", repeat("a", 65), "longer than 64"},
		{"empty", "", "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := normalize.RuntimeKind(c.in)
			wantRefusal(t, err, "invalid_runtime_kind", c.hint)
		})
	}
}

func TestCapabilitiesAreLowerCasedSortedAndUnique(t *testing.T) {
	got, err := normalize.Capabilities([]string{" Review ", "edit", "review", "EDIT", "a:b", "0-z"})
	want := []string{"0-z", "a:b", "edit", "review"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Capabilities = %q, %v; want %q", got, err, want)
	}
	for _, in := range [][]string{nil, {}} {
		if got, err := normalize.Capabilities(in); err != nil || got == nil || len(got) != 0 {
			t.Errorf("Capabilities(%#v) = %#v, %v; want empty non-nil", in, got, err)
		}
	}
}

func TestCapabilitiesRefusals(t *testing.T) {
	many := make([]string, 33)
	for i := range many {
		many[i] = "cap"
	}
	_, err := normalize.Capabilities(many)
	wantRefusal(t, err, "invalid_declared_capabilities", "at most 32")
	if _, err := normalize.Capabilities(many[:32]); err != nil {
		t.Errorf("32 capabilities refused: %v", err)
	}

	cases := []struct{ name, in, hint string }{
		{"free text", "can edit files", "symbolic"},
		{"capital I with dot", "\u0130", "symbolic"},
		{"blank", "  ", "empty"},
		{"101 characters", repeat("c", 101), "longer than 100"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := normalize.Capabilities([]string{"ok", c.in})
			wantRefusal(t, err, "invalid_declared_capability", c.hint)
		})
	}
}
