package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// groupFixture is a file database with one empty workspace.
type groupFixture struct {
	t  *testing.T
	db *DB
	e  Engine
}

func newGroupFixture(t *testing.T) *groupFixture {
	t.Helper()
	db, err := Open(context.Background(), Options{Path: filepath.Join(t.TempDir(), "collab.sqlite")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	f := &groupFixture{t: t, db: db, e: Engine{DB: db}}
	err = f.e.Write(context.Background(), func(tx store.Tx) error {
		return tx.CreateWorkspace(context.Background(), store.NewWorkspace{ID: "ws", EpochID: "epoch", RootPath: "/group/ws",
			Name: "ws", RepositoryKey: "local-path:ws", CreatedAt: "2026-01-01T00:00:00.000Z"})
	})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// appendAt appends one event named id at the head tx reads.
func appendAt(ctx context.Context, tx store.Tx, id string) error {
	h, _, err := tx.Head(ctx, "ws")
	if err != nil {
		return err
	}
	e := journal.Event{WorkspaceID: "ws", EpochID: h.EpochID, Sequence: h.Sequence + 1, ID: id, Protocol: journal.ProtocolV2,
		Type: string(journal.KindTaskProgressed), EntityID: "task_1", Actor: "group", OccurredAt: "2026-01-01T00:00:00.000Z",
		PayloadJSON: []byte(`{}`), PrevHash: h.Hash}
	var hasher journal.Hasher
	if e.Hash, err = hasher.Hash(&e); err != nil {
		return err
	}
	return tx.Append(ctx, &e)
}

// committedHead is the head as another connection sees it: what is
// committed.
func (f *groupFixture) committedHead() (int64, error) {
	var seq int64
	err := f.db.ReadPool().QueryRow("SELECT event_head_sequence FROM workspaces WHERE id = 'ws'").Scan(&seq)
	return seq, err
}

// journal returns the ids of the workspace's events in sequence order and
// checks the chain.
func (f *groupFixture) journal() []string {
	f.t.Helper()
	var ids []string
	err := f.e.Read(context.Background(), func(tx store.Tx) error {
		evs, err := tx.Events(context.Background(), "ws", store.EventRange{Limit: 1000})
		for _, e := range evs {
			ids = append(ids, e.ID)
		}
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return ids
}

// batch runs the writers fns while a leader holds a batch of its own: it
// waits until all of them are queued behind it, so that they form the next
// batch together, runs hold (when not nil), lets the leader finish, and
// returns each writer's answer, the leader's first.
func (f *groupFixture) batch(ctxs []context.Context, fns []func(tx store.Tx) error, hold func()) []error {
	f.t.Helper()
	errs := make([]error, len(fns)+1)
	started, queued := make(chan struct{}), make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		errs[0] = f.e.Write(context.Background(), func(tx store.Tx) error {
			once.Do(func() { close(started) })
			<-queued
			return appendAt(context.Background(), tx, "leader")
		})
	}()
	<-started
	for i, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i+1] = f.e.Write(ctxs[i], fn)
		}()
		f.waitQueued(i + 1)
	}
	if hold != nil {
		hold()
	}
	close(queued)
	wg.Wait()
	return errs
}

// waitQueued returns once n writes wait for the next batch.
func (f *groupFixture) waitQueued(n int) {
	for f.db.writers.Queued() != n {
		runtime.Gosched()
	}
}

func TestGroupCommitAnswersEachMemberAlone(t *testing.T) {
	refusal := errors.New("refused")
	bg := context.Background()
	appending := func(id string) func(tx store.Tx) error {
		return func(tx store.Tx) error { return appendAt(bg, tx, id) }
	}
	type setup struct {
		f       *groupFixture
		ctxs    []context.Context
		cancels []context.CancelFunc
		ran     []atomic.Bool
	}
	cases := []struct {
		name    string
		members func(s *setup) []func(tx store.Tx) error
		hold    func(s *setup)
		want    []error // the leader's first
		journal []string
		ran     []bool
	}{
		{"each member sees the ones before it and none commits before the batch",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error {
					h, _, err := tx.Head(bg, "ws")
					if err != nil {
						return err
					}
					committed, err := s.f.committedHead()
					if err != nil {
						return err
					}
					if h.Sequence != 2 || committed != 1 {
						return errors.New("the third member does not share the first two's transaction")
					}
					return appendAt(bg, tx, "c")
				}}
			}, nil,
			[]error{nil, nil, nil}, []string{"leader", "b", "c"}, nil},
		{"a refused member takes back only its own append",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error {
					if err := appendAt(bg, tx, "c"); err != nil {
						return err
					}
					return refusal
				}, appending("d")}
			}, nil,
			[]error{nil, nil, refusal, nil}, []string{"leader", "b", "d"}, nil},
		{"a member ending the transaction makes the others run again without it",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error {
					if _, err := tx.(*Tx).ExecContext(bg, "ROLLBACK"); err != nil {
						return err
					}
					return refusal
				}, appending("d")}
			}, nil,
			[]error{nil, nil, refusal, nil}, []string{"leader", "b", "d"}, nil},
		{"a member whose ctx ends while queued leaves without running",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{func(tx store.Tx) error {
					s.ran[0].Store(true)
					return appendAt(bg, tx, "b")
				}, appending("c")}
			},
			func(s *setup) {
				s.cancels[0]()
				s.f.waitQueued(1)
			},
			[]error{nil, context.Canceled, nil}, []string{"leader", "c"}, []bool{false, true}},
		{"a member whose ctx ends inside the batch takes back only its own write",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{func(tx store.Tx) error {
					if err := appendAt(s.ctxs[0], tx, "b"); err != nil {
						return err
					}
					s.cancels[0]()
					return appendAt(s.ctxs[0], tx, "b2")
				}, appending("c")}
			}, nil,
			[]error{nil, context.Canceled, nil}, []string{"leader", "c"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &setup{f: newGroupFixture(t)}
			fns := c.members(s)
			s.ran = make([]atomic.Bool, len(fns))
			for range fns {
				ctx, cancel := context.WithCancel(bg)
				s.ctxs, s.cancels = append(s.ctxs, ctx), append(s.cancels, cancel)
			}
			var hold func()
			if c.hold != nil {
				hold = func() { c.hold(s) }
			}
			fns = c.members(s)
			got := s.f.batch(s.ctxs, fns, hold)
			for i := range c.want {
				if !errors.Is(got[i], c.want[i]) {
					t.Errorf("member %d answered %v, want %v", i, got[i], c.want[i])
				}
			}
			for i, want := range c.ran {
				if i < len(s.ran) && s.ran[i].Load() != want && want == false {
					t.Errorf("member %d ran after leaving the queue", i+1)
				}
			}
			if j := s.f.journal(); !slices.Equal(j, c.journal) {
				t.Errorf("journal %v, want %v", j, c.journal)
			}
			verifyWorkspace(t, s.f.e)
		})
	}
}

// verifyWorkspace checks the workspace's chain.
func verifyWorkspace(t *testing.T, e store.Engine) {
	t.Helper()
	ok, found, err := storetest.VerifyChain(context.Background(), e, "ws")
	if err != nil || !found || !ok {
		t.Fatalf("chain: ok=%v found=%v err=%v", ok, found, err)
	}
}
