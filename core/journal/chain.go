package journal

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// chainBatch is how many events a Chain hands a hashing worker at once:
// large enough that the hand-over costs little next to hashing them,
// small enough that every worker gets some of a short journal.
const chainBatch = 256

// Chain verifies a journal fed event by event in sequence order, like
// Verifier, and reaches the same verdict: every sequence contiguous, every
// prev_hash the stored hash of the event before, every stored hash equal
// to its recomputation. Because each stored event carries its prev_hash,
// the links are checked in order as events arrive while the recomputation
// of the hashes, the costly part, runs on the other cores. Next copies the
// event it is given (the strings it holds must not change afterwards,
// which Go strings never do; PayloadJSON must not be modified either),
// unless the chain was told the events are Borrowed. Close must be called
// once feeding ends; a Chain is used by one goroutine.
type Chain struct {
	expected int64
	// prev is a copy of the stored hash of the last linked event.
	prev     []byte
	linksOK  bool
	borrowed bool
	hashBad  atomic.Bool

	// inline, when set, hashes in Next on the caller's goroutine (one
	// core, or too short a journal to be worth a worker).
	inline  bool
	hasher  Hasher
	workers int
	batch   []Event
	work    chan []Event
	free    chan []Event
	pending sync.WaitGroup
	running sync.WaitGroup
	started bool
	closed  bool
}

// NewChain starts verification after the anchor (afterSequence,
// afterHash), hashing on up to workers goroutines; workers below 2 (or a
// single CPU) hashes on the caller's goroutine.
func NewChain(afterSequence int64, afterHash string, workers int) *Chain {
	workers = min(workers, runtime.GOMAXPROCS(0))
	return &Chain{expected: afterSequence + 1, prev: []byte(afterHash), linksOK: true, inline: workers < 2, workers: workers}
}

// Borrowed tells c that the events fed to Next view memory that stays
// valid only until Next returns: c then keeps nothing of an event but a
// copy of its hash, and copies each event it hands to a worker.
func (c *Chain) Borrowed() { c.borrowed = true }

// ChainWorkers is the number of hashing goroutines a full verification
// uses: one per CPU the runtime may use.
func ChainWorkers() int { return runtime.GOMAXPROCS(0) }

// Next checks e's link to the event before it and queues its hash for
// recomputation. It reports false once the chain is known to be broken (a
// link fails now or a hash already failed); the verdict on hashes still
// being recomputed comes from Sync or Close.
func (c *Chain) Next(e *Event) bool {
	if !c.linksOK || c.hashBad.Load() {
		return false
	}
	if e.Sequence != c.expected || e.PrevHash != string(c.prev) {
		c.linksOK = false
		return false
	}
	c.expected++
	c.prev = append(c.prev[:0], e.Hash...)
	if c.inline {
		if !c.hasher.Matches(e) {
			c.hashBad.Store(true)
			return false
		}
		return true
	}
	if c.batch == nil {
		c.batch = c.takeBatch()
	}
	if c.borrowed {
		c.batch = append(c.batch, cloneEvent(e))
	} else {
		c.batch = append(c.batch, *e)
	}
	if len(c.batch) == chainBatch {
		c.flush()
	}
	return true
}

// Sync waits until every event fed so far has been hashed and reports
// whether the chain is valid up to there.
func (c *Chain) Sync() bool {
	if len(c.batch) > 0 {
		c.flush()
	}
	c.pending.Wait()
	return c.linksOK && !c.hashBad.Load()
}

// Close waits for the outstanding hashes, stops the workers, and reports
// whether every event fed verified.
func (c *Chain) Close() bool {
	ok := c.Sync()
	if c.started && !c.closed {
		close(c.work)
		c.running.Wait()
	}
	c.closed = true
	return ok
}

// Last returns the sequence and stored hash of the last event whose link
// verified (or the starting anchor when none was fed); after a true Close
// it is the verified head.
func (c *Chain) Last() (int64, string) { return c.expected - 1, string(c.prev) }

func (c *Chain) takeBatch() []Event {
	select {
	case b := <-c.free:
		return b
	default:
		return make([]Event, 0, chainBatch)
	}
}

// flush hands the current batch to a worker, starting the workers on the
// first batch.
func (c *Chain) flush() {
	if !c.started {
		c.started = true
		c.work = make(chan []Event, c.workers)
		c.free = make(chan []Event, 2*c.workers+1)
		c.running.Add(c.workers)
		for range c.workers {
			go c.hashWorker()
		}
	}
	c.pending.Add(1)
	c.work <- c.batch
	c.batch = nil
}

func (c *Chain) hashWorker() {
	defer c.running.Done()
	var h Hasher
	for b := range c.work {
		for i := range b {
			if !c.hashBad.Load() && !h.Matches(&b[i]) {
				c.hashBad.Store(true)
			}
			b[i] = Event{} // drop the row's strings before the batch is reused
		}
		select {
		case c.free <- b[:0]:
		default:
		}
		c.pending.Done()
	}
}

// errChainBroken stops a feed once the chain is known to be broken.
var errChainBroken = errors.New("journal chain broken")

// Feed streams a journal's events in sequence order to emit, stopping with
// emit's error when emit returns one.
type Feed func(emit func(e *Event) error) error

// VerifyFeed checks a whole journal, from genesis, against its head
// (headSequence, headHash), hashing on ChainWorkers goroutines. When
// progress is not nil it is called after every `every` verified events,
// and after the last ones, with how many have verified. An error from feed
// is returned as it is; the verdict is then false.
func VerifyFeed(headSequence int64, headHash string, every int64, progress func(done int64), feed Feed) (bool, error) {
	chain := NewChain(0, GenesisHash, ChainWorkers())
	defer chain.Close()
	var fed int64
	err := feed(func(e *Event) error {
		if !chain.Next(e) {
			return errChainBroken
		}
		fed++
		if progress != nil && fed%every == 0 {
			if !chain.Sync() {
				return errChainBroken
			}
			progress(fed)
		}
		return nil
	})
	if errors.Is(err, errChainBroken) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !chain.Close() {
		return false, nil
	}
	if progress != nil && fed%every != 0 {
		progress(fed)
	}
	seq, hash := chain.Last()
	return seq == headSequence && hash == headHash, nil
}

// cloneEvent copies e's text into one allocation of its own.
func cloneEvent(e *Event) Event {
	size := len(e.WorkspaceID) + len(e.EpochID) + len(e.ID) + len(e.Protocol) + len(e.Type) + len(e.EntityID) + len(e.Actor) +
		len(e.OccurredAt) + len(e.PayloadJSON) + len(e.PrevHash) + len(e.Hash)
	if e.SessionID != nil {
		size += len(*e.SessionID)
	}
	buf := make([]byte, 0, size)
	text := func(s string) string {
		start := len(buf)
		buf = append(buf, s...)
		return unsafe.String(unsafe.SliceData(buf[start:]), len(s))
	}
	c := Event{WorkspaceID: text(e.WorkspaceID), Sequence: e.Sequence, EpochID: text(e.EpochID), ID: text(e.ID),
		Protocol: text(e.Protocol), Type: text(e.Type), EntityID: text(e.EntityID), Actor: text(e.Actor),
		OccurredAt: text(e.OccurredAt)}
	start := len(buf)
	buf = append(buf, e.PayloadJSON...)
	c.PayloadJSON = buf[start:len(buf):len(buf)]
	c.PrevHash, c.Hash = text(e.PrevHash), text(e.Hash)
	if e.SessionID != nil {
		sid := text(*e.SessionID)
		c.SessionID = &sid
	}
	return c
}
