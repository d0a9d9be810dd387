package postgres

import (
	"context"
	"errors"
	"io"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// groupFixture is a fresh journal with one empty workspace.
type groupFixture struct {
	t *testing.T
	e *Engine
}

func newGroupFixture(t *testing.T) *groupFixture {
	t.Helper()
	e, err := Open(context.Background(), freshDatabase(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	err = e.Write(context.Background(), func(tx store.Tx) error {
		return tx.CreateWorkspace(context.Background(), store.NewWorkspace{ID: "ws", EpochID: "epoch", RootPath: "/group/ws",
			Name: "ws", RepositoryKey: "local-path:ws", CreatedAt: "2026-01-01T00:00:00.000Z"})
	})
	if err != nil {
		t.Fatal(err)
	}
	return &groupFixture{t: t, e: e}
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

// committedHead is the head another connection sees: what is committed.
func (f *groupFixture) committedHead() (int64, error) {
	var seq int64
	err := f.e.pool.QueryRow("SELECT event_head_sequence FROM workspaces WHERE id = 'ws'").Scan(&seq)
	return seq, err
}

// journal returns the ids of the workspace's events in sequence order and
// checks the chain.
func (f *groupFixture) journal() []string {
	f.t.Helper()
	var evs []journal.Event
	err := f.e.Read(context.Background(), func(tx store.Tx) error {
		var err error
		evs, err = tx.Events(context.Background(), "ws", store.EventRange{Limit: 1000})
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	var ids []string
	for i, e := range evs {
		prev := e.PrevHash
		if i > 0 {
			prev = evs[i-1].Hash
		}
		if e.Sequence != int64(i+1) || e.PrevHash != prev {
			f.t.Fatalf("event %s at %d follows %q, want sequence %d after %q", e.ID, e.Sequence, e.PrevHash, i+1, prev)
		}
		ids = append(ids, e.ID)
	}
	return ids
}

// batch runs the writers fns while a leader holds a write of its own: it
// waits until all of them are queued behind it, so that they form the next
// batch together, lets the leader finish, and returns each writer's
// answer, the leader's first.
func (f *groupFixture) batch(fns []func(tx store.Tx) error) []error {
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
			errs[i+1] = f.e.Write(context.Background(), fn)
		}()
		for f.e.group.Queued() != i+1 {
			runtime.Gosched()
		}
	}
	close(queued)
	wg.Wait()
	return errs
}

// TestGroupCommitAnswersEachMemberAlone checks, member by member, what a
// batch of writes sharing one transaction answers: a refusal, a failing
// statement and a failing held write take back only their own member; a
// serialization failure runs the whole batch again; a COMMIT that lost
// its connection is settled by each member's own witness.
func TestGroupCommitAnswersEachMemberAlone(t *testing.T) {
	bg := context.Background()
	refusal := errors.New("refused")
	type setup struct {
		f    *groupFixture
		runs []atomic.Int32
	}
	counted := func(s *setup, i int, fn func(tx store.Tx) error) func(tx store.Tx) error {
		return func(tx store.Tx) error {
			s.runs[i].Add(1)
			return fn(tx)
		}
	}
	appending := func(id string) func(tx store.Tx) error {
		return func(tx store.Tx) error { return appendAt(bg, tx, id) }
	}
	unplaceable := func(tx store.Tx) error {
		_, err := tx.(*Tx).ExecContext(bg, "UPDATE workspaces SET name = 'renamed' WHERE id = 'ws'")
		return err
	}
	const serialization = "40001"
	cases := []struct {
		name    string
		members func(s *setup) []func(tx store.Tx) error
		hook    func(s *setup) func(t *Tx, commit func() error) error
		want    []string // per member, the leader's first: "" for nil, else a word the error must match
		journal []string
		runs    []int32
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
						return errors.New("the third member does not share the second one's transaction")
					}
					return appendAt(bg, tx, "c")
				}}
			}, nil,
			[]string{"", "", ""}, []string{"leader", "b", "c"}, nil},
		{"a refused member takes back only its own append",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error {
					if err := appendAt(bg, tx, "c"); err != nil {
						return err
					}
					return refusal
				}, appending("d")}
			}, nil,
			[]string{"", "", "refused", ""}, []string{"leader", "b", "d"}, nil},
		{"a member refused before it sent anything changes nothing",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error { return refusal }, appending("d")}
			}, nil,
			[]string{"", "", "refused", ""}, []string{"leader", "b", "d"}, nil},
		{"a member whose statement aborts the transaction fails alone",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error {
					if err := appendAt(bg, tx, "c"); err != nil {
						return err
					}
					_, err := tx.(*Tx).ExecContext(bg, "SELECT 1 / 0")
					return err
				}, appending("d")}
			}, nil,
			[]string{"", "", "division by zero", ""}, []string{"leader", "b", "d"}, nil},
		{"a member whose held write fails fails alone",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{appending("b"), func(tx store.Tx) error {
					return appendAt(bg, tx, "b") // the event id is taken
				}, appending("d")}
			}, nil,
			[]string{"", "", "duplicate key", ""}, []string{"leader", "b", "d"}, nil},
		{"a held write failing under the next members' statement takes back its member only; they run again",
			func(s *setup) []func(tx store.Tx) error {
				reading := func(id string) func(tx store.Tx) error {
					return func(tx store.Tx) error {
						if _, err := tx.Events(bg, "ws", store.EventRange{Limit: 1}); err != nil {
							return err
						}
						return appendAt(bg, tx, id)
					}
				}
				return []func(tx store.Tx) error{counted(s, 0, appending("b")), counted(s, 1, appending("b")),
					counted(s, 2, appending("d")), counted(s, 3, reading("e")), counted(s, 4, appending("f"))}
			}, nil,
			[]string{"", "", "duplicate key", "", "", ""}, []string{"leader", "b", "d", "e", "f"}, []int32{1, 1, 2, 2, 1}},
		{"the last member's held write failing takes back only its member",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{counted(s, 0, appending("b")), counted(s, 1, appending("b"))}
			}, nil,
			[]string{"", "", "duplicate key"}, []string{"leader", "b"}, []int32{1, 1}},
		{"a serialization failure runs the whole batch again",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{
					counted(s, 0, appending("b")),
					counted(s, 1, func(tx store.Tx) error {
						if err := appendAt(bg, tx, "c"); err != nil {
							return err
						}
						if s.runs[1].Load() == 1 {
							return &pgconn.PgError{Code: serialization, Message: "could not serialize access"}
						}
						return nil
					}),
					counted(s, 2, func(tx store.Tx) error { return refusal }),
				}
			}, nil,
			[]string{"", "", "", "refused"}, []string{"leader", "b", "c"}, []int32{2, 2, 1}},
		{"a COMMIT lost after it committed is settled by each member's witness",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{counted(s, 0, appending("b")), counted(s, 1, unplaceable),
					counted(s, 2, appending("d")), counted(s, 3, func(tx store.Tx) error { return refusal })}
			},
			func(s *setup) func(t *Tx, commit func() error) error {
				return func(t *Tx, commit func() error) error {
					if err := commit(); err != nil {
						return err
					}
					return io.ErrUnexpectedEOF
				}
			},
			[]string{"", "", "write_outcome_unknown", "", "refused"}, []string{"leader", "b", "d"}, []int32{1, 1, 1, 1}},
		{"a COMMIT lost before it committed runs the members again",
			func(s *setup) []func(tx store.Tx) error {
				return []func(tx store.Tx) error{counted(s, 0, appending("b")), counted(s, 1, unplaceable),
					counted(s, 2, appending("d")), counted(s, 3, func(tx store.Tx) error { return refusal })}
			},
			func(s *setup) func(t *Tx, commit func() error) error {
				var lost atomic.Bool
				return func(t *Tx, commit func() error) error {
					if lost.Swap(true) {
						return commit()
					}
					var pid int
					if err := t.QueryRowContext(bg, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
						return err
					}
					if _, err := s.f.e.pool.ExecContext(bg, "SELECT pg_terminate_backend($1, 60000)", pid); err != nil {
						return err
					}
					return commit()
				}
			},
			[]string{"", "", "write_outcome_unknown", "", "refused"}, []string{"leader", "b", "d"}, []int32{2, 1, 2, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := &setup{f: newGroupFixture(t), runs: make([]atomic.Int32, 8)}
			if c.hook != nil {
				s.f.e.commitHook = c.hook(s)
			}
			errs := s.f.batch(c.members(s))
			for i, err := range errs {
				switch {
				case c.want[i] == "" && err != nil:
					t.Errorf("member %d: %v, want success", i, err)
				case c.want[i] != "" && (err == nil || !containsWord(err, c.want[i])):
					t.Errorf("member %d: %v, want an error saying %q", i, err, c.want[i])
				}
			}
			if got := s.f.journal(); !slices.Equal(got, c.journal) {
				t.Errorf("journal %v, want %v", got, c.journal)
			}
			for i, want := range c.runs {
				if got := s.runs[i].Load(); got != want {
					t.Errorf("member %d ran %d times, want %d", i+1, got, want)
				}
			}
		})
	}
}

// containsWord reports whether err's text holds word, or err is the
// write_outcome_unknown refusal word names.
func containsWord(err error, word string) bool {
	return strings.Contains(err.Error(), word) || (word == "write_outcome_unknown" && IsCommitUnknown(err))
}
