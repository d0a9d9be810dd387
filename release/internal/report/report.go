// Package report collects the outcome of release checks: what passed, what
// failed and why, and what was deliberately not checked, so a reader of a
// green run knows its limits.
package report

import (
	"fmt"
	"io"
)

// Check is one named check and its outcome; Err nil means it passed.
type Check struct {
	Name string
	Err  error
}

// Report is an ordered list of checks and of things left unchecked.
type Report struct {
	Checks     []Check
	NotChecked []string
}

// Add records a check.
func (r *Report) Add(name string, err error) { r.Checks = append(r.Checks, Check{name, err}) }

// Skip records something this run did not check, with the reason.
func (r *Report) Skip(what, why string) {
	r.NotChecked = append(r.NotChecked, what+": "+why)
}

// OK reports whether at least one check was recorded and every one passed.
func (r *Report) OK() bool {
	for _, c := range r.Checks {
		if c.Err != nil {
			return false
		}
	}
	return len(r.Checks) > 0
}

// Failed returns the checks that did not pass.
func (r *Report) Failed() []Check {
	var out []Check
	for _, c := range r.Checks {
		if c.Err != nil {
			out = append(out, c)
		}
	}
	return out
}

// Write prints one line per check ("ok" or "FAIL" with the reason), then the
// list of what was not checked, then a closing "<label>: N passed, N failed"
// line.
func (r *Report) Write(w io.Writer, label string) {
	passed := 0
	for _, c := range r.Checks {
		if c.Err == nil {
			passed++
			fmt.Fprintf(w, "ok    %s\n", c.Name)
		} else {
			fmt.Fprintf(w, "FAIL  %s: %v\n", c.Name, c.Err)
		}
	}
	if len(r.NotChecked) > 0 {
		fmt.Fprintln(w, "not checked:")
		for _, s := range r.NotChecked {
			fmt.Fprintf(w, "  - %s\n", s)
		}
	}
	fmt.Fprintf(w, "%s: %d passed, %d failed\n", label, passed, len(r.Checks)-passed)
}
