package cli

import (
	"fmt"
	"io"
	"time"
)

// progressDelay is how long work runs before a progress line appears.
const progressDelay = time.Second

// progress shows "label ⠋ 3s" on a terminal's stderr while slow work runs
// (verifying a large journal), and nothing when the work is quick or
// stderr is not a terminal. stop clears the line.
func progress(w io.Writer, label string) (stop func()) {
	if !IsTerminal(w) {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		select {
		case <-done:
			return
		case <-time.After(progressDelay):
		}
		frames := []rune("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			fmt.Fprintf(w, "\r%s %c %ds", label, frames[i%len(frames)], int(time.Since(start).Seconds()))
			select {
			case <-done:
				fmt.Fprint(w, "\r\x1b[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(done); <-finished }
}
