package notice

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/wake"
	"github.com/agenttool/collab/hosts/termtext"
	"github.com/agenttool/collab/hosts/tmux"
)

// pushPaneCheck is how often push checks, while idle, that its pane still
// exists.
const pushPaneCheck = 5 * time.Second

// pushTypeBudget bounds typing one line (the paste, the pause, the
// Enter). It is not cut short by an interrupt: a line half typed without
// its Enter would sit in the agent's input.
const pushTypeBudget = 5 * time.Second

// pusher coalesces notices and types them into one pane.
type pusher struct {
	o     pushOptions
	pane  tmux.Pane
	diag  io.Writer
	scrub func(string) string

	pending []wake.Notice
	first   time.Time // when the oldest pending notice arrived
	last    time.Time // when the newest did
	lastErr string    // the last tmux failure logged, so a retry loop logs it once

	announce *announcer // receipts of what was typed, channel "tmux"
}

// run follows the session (a watcher on its own goroutine) and types
// each burst once. It returns nil when ctx ends, the session ends or the
// pane goes away.
func (p *pusher) run(ctx context.Context, src *wakeSource) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan []wake.Notice, 64)
	followed := make(chan error, 1)
	p.announce = &announcer{src: src, channel: store.ChannelTmux}
	defer p.announce.close()
	w := &watcher{name: "push", src: src, diag: p.diag, emit: func(ns []wake.Notice) {
		select {
		case batches <- ns:
		case <-ctx.Done():
		}
	}}
	go func() { followed <- w.run(ctx, p.o.interval, 0) }()
	fire := time.NewTimer(time.Hour)
	fire.Stop()
	check := time.NewTicker(pushPaneCheck)
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			fmt.Fprintln(p.diag, "collab push: interrupted; stopping")
			return nil
		case err := <-followed:
			return err
		case ns := <-batches:
			if p.add(ns, time.Now()) {
				fire.Reset(p.due(time.Now()))
			}
		case <-fire.C:
			if retry, gone := p.deliver(ctx); gone {
				return nil
			} else if retry {
				fire.Reset(max(p.o.debounce, 100*time.Millisecond))
			}
		case <-check.C:
			if _, err := p.pane.State(ctx); errors.Is(err, tmux.ErrGone) {
				fmt.Fprintf(p.diag, "collab push: pane %s is gone; stopping\n", p.pane.ID)
				return nil
			}
		}
	}
}

// add keeps the notices the allow-list lets through and reports whether
// any was kept.
func (p *pusher) add(ns []wake.Notice, now time.Time) bool {
	kept := false
	for _, n := range ns {
		if len(p.o.from) > 0 && n.From != "" && !p.o.from[n.From] {
			fmt.Fprintf(p.diag, "collab push: ignored #%d from %s (not in --from)\n", n.Sequence, termtext.Label(n.From))
			continue
		}
		if len(p.pending) == 0 {
			p.first = now
		}
		p.pending, p.last, kept = append(p.pending, n), now, true
	}
	return kept
}

// due is how long to wait before typing: until --debounce has passed
// since the newest notice, but no later than 5 x --debounce after the
// oldest.
func (p *pusher) due(now time.Time) time.Duration {
	at := p.last.Add(p.o.debounce)
	if limit := p.first.Add(5 * p.o.debounce); at.After(limit) {
		at = limit
	}
	return max(at.Sub(now), 0)
}

// deliver types the pending notices as one line when the pane may take
// it. retry is true when the line must wait (copy mode, a passing tmux
// error); gone when the pane no longer exists.
func (p *pusher) deliver(ctx context.Context) (retry, gone bool) {
	if len(p.pending) == 0 {
		return false, false
	}
	st, err := p.pane.State(ctx)
	switch {
	case errors.Is(err, tmux.ErrGone):
		fmt.Fprintf(p.diag, "collab push: pane %s is gone; stopping\n", p.pane.ID)
		return false, true
	case err != nil:
		if msg := err.Error(); msg != p.lastErr {
			fmt.Fprintf(p.diag, "collab push: %s; trying again\n", msg)
			p.lastErr = msg
		}
		return true, false
	case st.InMode:
		return true, false
	}
	if reason := p.refusal(st); reason != "" {
		fmt.Fprintf(p.diag, "collab push: not typed (%s): %d notice(s) dropped\n", reason, len(p.pending))
		p.pending = nil
		return false, false
	}
	line := pushLine(p.pending, p.scrub)
	typing, cancel := context.WithTimeout(context.WithoutCancel(ctx), pushTypeBudget)
	defer cancel()
	if err := p.pane.Paste(typing, line, p.o.enterDelay); err != nil {
		fmt.Fprintf(p.diag, "collab push: not typed: %v; %d notice(s) dropped\n", err, len(p.pending))
		p.pending = nil
		return false, errors.Is(err, tmux.ErrGone)
	}
	p.announced(ctx, p.pending)
	fmt.Fprintf(p.diag, "collab push: typed %d notice(s) into %s\n", len(p.pending), p.pane.ID)
	p.pending = nil
	return false, false
}

// refusal says why nothing may be typed into a pane in state st, or "".
func (p *pusher) refusal(st tmux.State) string {
	switch {
	case st.Dead:
		return "the pane's program has exited"
	case tmux.IsShell(st.Command):
		return fmt.Sprintf("the pane's foreground program is a shell, %s", termtext.Label(st.Command))
	case len(p.o.commands) > 0 && !p.o.commands[st.Command]:
		return fmt.Sprintf("the pane's foreground program %s is not named by --command", termtext.Label(st.Command))
	}
	return ""
}

// announced records that notices were announced to the session through
// tmux: it is called exactly once per typed line, after the Enter was
// sent, with the notices that line carried. Announcing is not reading: the
// receipt never moves the session's cursor.
func (p *pusher) announced(ctx context.Context, ns []wake.Notice) { p.announce.record(ctx, ns) }
