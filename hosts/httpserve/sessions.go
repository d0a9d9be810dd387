package httpserve

import (
	"sync"
	"time"

	"github.com/agenttool/collab/hosts/mcp"
)

// sessionTable is the server's account of the MCP sessions it created:
// who owns each, whether it holds a bound collab session, how many
// requests it has in flight, and when it expires idle. It caps live
// sessions per client and in total: a session counts from the request
// that asks for it (reserve) until it ends, so a burst of initialize
// requests can never overshoot a cap. It owns every idle timeout: a
// session that never bound expires after UnboundIdle, a bound one after
// SessionIdle, and an expired or deleted session is dropped at once, so
// nothing this server holds keeps its memory alive.
type sessionTable struct {
	maxTotal, maxPerClient int
	idleBound, idleUnbound time.Duration
	onExpire               func(principal string, bound bool)
	mu                     sync.Mutex
	byID                   map[string]*liveSession
	total                  int
	perClient              map[string]int
}

// liveSession is one MCP session, from its reservation to its end.
type liveSession struct {
	principal string
	id        string          // "" until the session is initialised
	disp      *mcp.Dispatcher // nil until then: what answers its requests
	ended     chan struct{}   // closed when the session ends (DELETE, idle)
	endOnce   sync.Once
	bound     bool // a collab session is bound (OnBind..OnUnbind)
	settled   bool // the request that created it has finished
	active    int  // requests of the session in flight
	counted   bool // holds a place in the caps
	timer     *time.Timer
	deadline  time.Time // when the idle timer fires; zero while disarmed
}

func newSessionTable(cfg Config, onExpire func(string, bool)) *sessionTable {
	return &sessionTable{maxTotal: cfg.MaxSessions, maxPerClient: cfg.MaxClientSessions,
		idleBound: cfg.SessionIdle, idleUnbound: cfg.UnboundIdle, onExpire: onExpire,
		byID: map[string]*liveSession{}, perClient: map[string]int{}}
}

// capRefusal says which cap refused a new session and when to try again.
type capRefusal struct {
	reason     string
	retryAfter time.Duration
}

// reserve takes a place for a new session of principal, or says which cap
// is full and when the soonest place of that cap frees up.
func (t *sessionTable) reserve(principal string) (*liveSession, *capRefusal) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.perClient[principal] >= t.maxPerClient {
		return nil, &capRefusal{reason: "this client already has its maximum of MCP sessions open",
			retryAfter: t.soonestExpiry(principal, true)}
	}
	if t.total >= t.maxTotal {
		return nil, &capRefusal{reason: "the server already has its maximum of MCP sessions open",
			retryAfter: t.soonestExpiry(principal, false)}
	}
	t.total++
	t.perClient[principal]++
	return &liveSession{principal: principal, counted: true, ended: make(chan struct{})}, nil
}

// soonestExpiry is how long until the first idle session (of principal
// only, when mine) expires; the unbound idle timeout when none is idle.
// Called with t.mu held.
func (t *sessionTable) soonestExpiry(principal string, mine bool) time.Duration {
	now, best := time.Now(), t.idleUnbound
	for _, ls := range t.byID {
		if (mine && ls.principal != principal) || ls.deadline.IsZero() {
			continue
		}
		if d := ls.deadline.Sub(now); d < best {
			best = d
		}
	}
	return best
}

// name records the reserved session's id and dispatcher, so that
// ownership checks see it before its first answer leaves.
func (t *sessionTable) name(ls *liveSession, id string, disp *mcp.Dispatcher) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ls.id, ls.disp = id, disp
	if ls.counted {
		t.byID[id] = ls
	}
}

// settle ends the creating request: a session that was initialised starts
// its idle clock; a refused or failed one gives its place back.
func (t *sessionTable) settle(ls *liveSession) {
	live := ls.live()
	t.mu.Lock()
	defer t.mu.Unlock()
	if !live {
		t.drop(ls)
		return
	}
	ls.settled = true
	if ls.active == 0 {
		t.arm(ls)
	}
}

// lookup returns the live session id, or nil for an id this server never
// issued or one that ended.
func (t *sessionTable) lookup(id string) *liveSession {
	t.mu.Lock()
	ls := t.byID[id]
	t.mu.Unlock()
	if ls == nil || !ls.live() {
		return nil
	}
	return ls
}

// owner returns the principal that owns the session id, if it is known.
func (t *sessionTable) owner(id string) (string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ls, ok := t.byID[id]
	if !ok {
		return "", false
	}
	return ls.principal, true
}

// begin marks a request of session id in flight (its idle clock stops)
// and returns the function that ends it: the clock restarts when no other
// request is in flight; ended (a DELETE) or a session that ended meanwhile
// is dropped at once.
func (t *sessionTable) begin(id string) func(ended bool) {
	t.mu.Lock()
	ls := t.byID[id]
	if ls != nil {
		ls.active++
		t.disarm(ls)
	}
	t.mu.Unlock()
	if ls == nil {
		return func(bool) {}
	}
	return func(ended bool) {
		live := !ended && ls.live()
		t.mu.Lock()
		ls.active--
		switch {
		case !live:
			t.drop(ls)
		case ls.active == 0 && ls.settled:
			t.arm(ls)
		}
		t.mu.Unlock()
		if ended {
			ls.end()
		}
	}
}

// setBound records that the session holds (or no longer holds) a bound
// collab session; it runs during a call, while the idle clock is stopped.
func (t *sessionTable) setBound(ls *liveSession, bound bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	ls.bound = bound
}

// arm starts the idle clock of ls. Called with t.mu held.
func (t *sessionTable) arm(ls *liveSession) {
	if !ls.counted {
		return
	}
	d := t.idleUnbound
	if ls.bound {
		d = t.idleBound
	}
	ls.deadline = time.Now().Add(d)
	if ls.timer == nil {
		ls.timer = time.AfterFunc(d, func() { t.expire(ls) })
		return
	}
	ls.timer.Reset(d)
}

// disarm stops the idle clock of ls. Called with t.mu held.
func (t *sessionTable) disarm(ls *liveSession) {
	if ls.timer != nil {
		ls.timer.Stop()
	}
	ls.deadline = time.Time{}
}

// drop forgets ls and gives back its place. Called with t.mu held.
func (t *sessionTable) drop(ls *liveSession) {
	t.disarm(ls)
	if !ls.counted {
		return
	}
	ls.counted = false
	if t.byID[ls.id] == ls {
		delete(t.byID, ls.id)
	}
	t.total--
	if t.perClient[ls.principal]--; t.perClient[ls.principal] <= 0 {
		delete(t.perClient, ls.principal)
	}
}

// expire ends a session whose idle clock ran out, unless a request
// arrived meanwhile.
func (t *sessionTable) expire(ls *liveSession) {
	t.mu.Lock()
	if !ls.counted || ls.active > 0 || ls.deadline.IsZero() || time.Now().Before(ls.deadline) {
		t.mu.Unlock()
		return
	}
	bound := ls.bound
	t.drop(ls)
	t.mu.Unlock()
	ls.end()
	if t.onExpire != nil {
		t.onExpire(ls.principal, bound)
	}
}

// stopClocks stops every idle clock; the server is done with its sessions.
func (t *sessionTable) stopClocks() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, ls := range t.byID {
		t.disarm(ls)
	}
}

// live reports whether the session was initialised and has not ended.
func (ls *liveSession) live() bool {
	if ls == nil || ls.disp == nil {
		return false
	}
	select {
	case <-ls.ended:
		return false
	default:
		return true
	}
}

// end ends the session: its open GET stream closes, and any later request
// naming it is answered 404. Calls in flight finish.
func (ls *liveSession) end() { ls.endOnce.Do(func() { close(ls.ended) }) }
