package command

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

func TestExitCodeMapsEveryKindOfError(t *testing.T) {
	cases := []struct {
		err     error
		code    int
		printed string
	}{
		{nil, ExitOK, ""},
		{Exit(0), ExitOK, ""},
		{Exit(86), 86, ""},
		{fmt.Errorf("wrapped: %w", Exit(10)), 10, ""},
		{UsageError{Msg: "takes one file"}, ExitUsage, "x: takes one file\n"},
		{errors.New("disk full"), ExitFailed, "x: disk full\n"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		if got := Report(&stderr, "x", c.err); got != c.code || stderr.String() != c.printed {
			t.Errorf("Report(%v) = %d, printed %q; want %d, %q", c.err, got, stderr.String(), c.code, c.printed)
		}
	}
}

func TestPositionalTakesFlagsAnywhere(t *testing.T) {
	cases := []struct {
		args []string
		pos  string
		json bool
	}{
		{[]string{"a", "--json"}, "a", true},
		{[]string{"--json", "a", "b"}, "a b", true},
		{[]string{"--", "--json"}, "--json", false},
		{[]string{"a", "--", "--", "--json"}, "a --json", false},
	}
	for _, c := range cases {
		p := NewParser("x", "x")
		asJSON := p.Flags.Bool("json", false, "")
		pos, err := Positional(p.Flags, c.args)
		if err != nil || fmt.Sprint(pos) != "["+c.pos+"]" || *asJSON != c.json {
			t.Errorf("Positional(%q) = %q, json %v, %v; want [%s], json %v", c.args, pos, *asJSON, err, c.pos, c.json)
		}
	}
}
