package command

import (
	"bytes"
	"testing"
)

func TestFlagsMayFollowArguments(t *testing.T) {
	c := NewParser("x", "x ARG [--json]")
	asJSON := c.Flags.Bool("json", false, "")
	pos, _, done := c.Parse([]string{"a", "--json"}, 1, 1, &bytes.Buffer{}, &bytes.Buffer{})
	if done || !*asJSON || len(pos) != 1 || pos[0] != "a" {
		t.Errorf("parse(a --json) = %v, json %v, done %v", pos, *asJSON, done)
	}
}
