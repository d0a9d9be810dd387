package normalize_test

import (
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

func TestIDAcceptsTheIdentifierAlphabet(t *testing.T) {
	cases := []struct{ in, want string }{
		{"task_a", "task_a"},
		{"  task-edge  ", "task-edge"},
		{"A", "A"},
		{"0.9:x_y-z", "0.9:x_y-z"},
		{"lease_b1055677-c483-4b01-aafb-e7e7093c3b7f", "lease_b1055677-c483-4b01-aafb-e7e7093c3b7f"},
		{"a" + repeat("b", 199), "a" + repeat("b", 199)},
	}
	for _, c := range cases {
		got, err := normalize.ID(c.in, "task_id")
		if err != nil || got != c.want {
			t.Errorf("ID(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

func TestIDRefusals(t *testing.T) {
	cases := []struct{ name, in, hint string }{
		{"leading dash", "-task", "ASCII letters"},
		{"leading dot", ".task", "ASCII letters"},
		{"leading underscore", "_task", "ASCII letters"},
		{"inner space", "task a", "ASCII letters"},
		{"slash", "task/a", "ASCII letters"},
		{"non-ASCII letter", "t\u00e2che", "ASCII letters"},
		{"Kelvin sign is not K", "\u212Aey", "ASCII letters"},
		{"trailing newline inside", "a\nb", "ASCII letters"},
		{"empty", "  ", "empty"},
		{"201 characters", repeat("a", 201), "longer than 200"},
		{"NUL", "a\x00", "NUL"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := normalize.ID(c.in, "task_id")
			wantRefusal(t, err, "invalid_task_id", c.hint)
		})
	}
}

func TestIdempotencyKeyHasItsOwnCode(t *testing.T) {
	got, err := normalize.IdempotencyKey(" create-parser ")
	if err != nil || got != "create-parser" {
		t.Fatalf("IdempotencyKey = %q, %v", got, err)
	}
	_, err = normalize.IdempotencyKey("create parser")
	wantRefusal(t, err, "invalid_idempotency_key", "idempotency key may use only")
	_, err = normalize.IdempotencyKey("")
	wantRefusal(t, err, "invalid_idempotency_key", "empty")
}

func TestActorIsFreeTextUnderTheActorField(t *testing.T) {
	got, err := normalize.Actor("  agent:edge-\U0001F98A of team 7 ")
	if err != nil || got != "agent:edge-\U0001F98A of team 7" {
		t.Fatalf("Actor = %q, %v", got, err)
	}
	_, err = normalize.Actor(repeat("a", 201))
	wantRefusal(t, err, "invalid_actor", "200")
	_, err = normalize.Actor("\t")
	wantRefusal(t, err, "invalid_actor", "empty")
}
