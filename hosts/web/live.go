package web

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/agenttool/collab/core/store"
)

// broker tells listening pages that the database changed. While at least
// one page listens, one goroutine asks SQLite for PRAGMA data_version on a
// single connection every poll interval; with no listener nothing runs.
// Each listener gets at most one pending notice, so a slow page never
// holds up the others.
type broker struct {
	st   *store.Store
	poll time.Duration

	mu      sync.Mutex
	subs    map[chan struct{}]struct{}
	stop    context.CancelFunc
	done    chan struct{}
	closed  bool
	watcher *store.ChangeWatcher
}

func newBroker(st *store.Store, poll time.Duration) *broker {
	return &broker{st: st, poll: poll, subs: map[chan struct{}]struct{}{}}
}

// subscribe registers a listener and starts polling if it is the first.
func (b *broker) subscribe() (chan struct{}, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, fmt.Errorf("server closing")
	}
	if b.watcher == nil {
		w, err := b.st.Watch(context.Background())
		if err != nil {
			return nil, err
		}
		b.watcher = w
	}
	ch := make(chan struct{}, 1)
	b.subs[ch] = struct{}{}
	if b.stop == nil {
		// The starting version is read before the listener is told it is
		// listening, so no commit after that point can be missed.
		last, err := b.watcher.Version(context.Background())
		if err != nil {
			delete(b.subs, ch)
			return nil, err
		}
		ctx, cancel := context.WithCancel(context.Background())
		b.stop, b.done = cancel, make(chan struct{})
		go b.run(ctx, b.watcher, last, b.done)
	}
	return ch, nil
}

// unsubscribe removes a listener and stops polling after the last.
func (b *broker) unsubscribe(ch chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.subs, ch)
	if len(b.subs) == 0 && b.stop != nil {
		b.stop()
		b.stop = nil
	}
}

func (b *broker) run(ctx context.Context, w *store.ChangeWatcher, last int64, done chan struct{}) {
	defer close(done)
	t := time.NewTicker(b.poll)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		v, err := w.Version(ctx)
		if err != nil || v == last {
			continue
		}
		last = v
		b.notify()
	}
}

func (b *broker) notify() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (b *broker) close() error {
	b.mu.Lock()
	b.closed = true
	stop, done, w := b.stop, b.done, b.watcher
	b.stop, b.watcher = nil, nil
	b.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	if w != nil {
		return w.Close()
	}
	return nil
}

// serve is the server-sent-events stream: one "change" event per commit
// seen (coalesced), and a comment every 20 s to keep proxies from closing
// it.
func (b *broker) serve(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch, err := b.subscribe()
	if err != nil {
		http.Error(w, "live updates unavailable", http.StatusServiceUnavailable)
		return
	}
	defer b.unsubscribe(ch)
	w.Header().Set("Content-Type", "text/event-stream")
	fmt.Fprint(w, "retry: 2000\n: listening\n\n")
	fl.Flush()
	keep := time.NewTicker(20 * time.Second)
	defer keep.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ch:
			fmt.Fprint(w, "event: change\ndata: 1\n\n")
		case <-keep.C:
			fmt.Fprint(w, ": keep-alive\n\n")
		}
		fl.Flush()
	}
}
