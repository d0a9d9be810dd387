package gitstate

import (
	"context"
	"testing"
	"time"
)

func TestRunnerCapsStdoutAtTheLimit(t *testing.T) {
	t.Parallel()
	r := smallRepo(t)
	head := r.git("rev-parse", "--verify", "HEAD") // 40 hex digits and a newline
	cases := []struct {
		name  string
		limit int
		ok    bool
	}{
		{"output exactly at the cap", len(head), true},
		{"one byte over the cap", len(head) - 1, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := runner{timeout: GitTimeout, limit: c.limit}
			out, ok := run.bytes(context.Background(), r.dir, "rev-parse", "--verify", "HEAD")
			if ok != c.ok || ok && string(out) != string(head) {
				t.Fatalf("ok=%v out=%q", ok, out)
			}
		})
	}
}

func TestRunnerFailsCallsThatTimeOut(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	run := runner{timeout: time.Nanosecond, limit: GitOutputLimit}
	if _, ok := run.bytes(context.Background(), r.dir, "rev-parse", "--git-dir"); ok {
		t.Fatal("a call past its timeout must fail")
	}
}

func TestRunnerRetriesACallThatTimedOutOnceWithMoreTime(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	cases := []struct {
		name  string
		retry time.Duration
		ok    bool
	}{
		{"the retry has room to finish", GitTimeout, true},
		{"the retry times out too", time.Nanosecond, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := runner{timeout: time.Nanosecond, retryTimeout: c.retry, limit: GitOutputLimit}
			if _, ok := run.bytes(context.Background(), r.dir, "rev-parse", "--git-dir"); ok != c.ok {
				t.Fatalf("ok = %v, want %v", ok, c.ok)
			}
		})
	}
}

func TestRunnerDoesNotRetryWhenTheCallerHasGivenUp(t *testing.T) {
	t.Parallel()
	r := newRepo(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	run := runner{timeout: GitTimeout, retryTimeout: GitTimeout, limit: GitOutputLimit}
	if _, _, err := run.exec(ctx, r.dir, "rev-parse", "--git-dir"); err == nil {
		t.Fatal("a call whose caller has gone must fail, not be retried into success")
	}
}

func TestTextCallsAreTrimmedAndMustNotBeBlank(t *testing.T) {
	cases := []struct {
		in   string
		want gitText
	}{
		{"main\n", gitText{"main", true}},
		{"\ufeff feature/x \r\n", gitText{"feature/x", true}},
		{"caf\xc3\n", gitText{"caf\uFFFD", true}},
		{" \n\t", gitText{}},
		{"", gitText{}},
	}
	for _, c := range cases {
		if got := textOf([]byte(c.in)); got != c.want {
			t.Errorf("textOf(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}
