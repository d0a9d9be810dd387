package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// TestHandoffsTableTellsWhatTheJournalDoes writes offers of both planes
// that end every way an offer can (accepted, declined, expired by a
// release, expired because its target session ended, lapsed past its
// deadline with no sweep, still live) and checks that the people's lists
// read from the handoffs table render exactly what the replay of the
// handoff.* events they replaced rendered: every offer with --all, the
// open ones by default, text and JSON.
func TestHandoffsTableTellsWhatTheJournalDoes(t *testing.T) {
	h := newOfferHistory(t)
	h.legacyOffers()
	h.sessionOffers()
	now := store.FormatTime(h.now)
	v := &view{st: h.s, ws: store.Workspace{ID: h.ws}}
	for _, all := range []bool{true, false} {
		t.Run(fmt.Sprintf("all=%v", all), func(t *testing.T) {
			fromTable, err := storeHandoffs(h.ctx, v, all, now)
			if err != nil {
				t.Fatal(err)
			}
			fromJournal := replayedHandoffs(t, h, all, now)
			if !reflect.DeepEqual(fromTable, fromJournal) {
				t.Fatalf("the table gives\n%+v\nthe journal gave\n%+v", fromTable, fromJournal)
			}
			if a, b := renderedHandoffs(fromTable), renderedHandoffs(fromJournal); a != b {
				t.Errorf("rendered from the table:\n%s\nfrom the journal:\n%s", a, b)
			}
			statuses := map[string]bool{}
			for _, o := range fromTable {
				statuses[o.Status] = true
			}
			want := []string{"pending", "lapsed"}
			if all {
				want = append(want, "accepted", "declined", "expired")
			}
			for _, s := range want {
				if !statuses[s] {
					t.Errorf("the history holds no %s offer: %v", s, statuses)
				}
			}
		})
	}
}

// renderedHandoffs is a list as collab handoffs prints it, text then JSON.
func renderedHandoffs(list []handoffView) string {
	var b strings.Builder
	for _, ids := range []bool{false, true} {
		for _, h := range list {
			fmt.Fprintf(&b, "%s\n", h.line(ids))
		}
	}
	raw, _ := json.Marshal(map[string]any{"handoffs": nonNil(list)})
	return b.String() + string(raw)
}

// replayedHandoffs is what people's commands showed before they read the
// table: the workspace's handoff.* events replayed from the first, by id,
// a pending offer past its deadline reading as lapsed.
func replayedHandoffs(t *testing.T, h *offerHistory, all bool, now string) []handoffView {
	t.Helper()
	byID := map[string]*handoffView{}
	var after int64
	for {
		page, err := h.s.EventsSince(h.ctx, h.ws, &after, nil, 500)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Events {
			after = e.Sequence
			replayHandoffEvent(byID, e)
		}
		if !page.HasMore || len(page.Events) == 0 {
			break
		}
	}
	out := []handoffView{}
	for _, o := range byID {
		if o.Status == "pending" && o.ExpiresAt <= now {
			o.Status = "lapsed"
		}
		if all || o.Status == "pending" || o.Status == "lapsed" {
			out = append(out, *o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// replayHandoffEvent applies one event: an offer (a session's payload
// names it handoff, the legacy plane's offer) or its answer or expiry.
func replayHandoffEvent(byID map[string]*handoffView, e store.EventView) {
	switch e.Type {
	case "handoff.offered":
		var p struct {
			Handoff *store.Handoff `json:"handoff"`
			Offer   *store.Handoff `json:"offer"`
		}
		if json.Unmarshal(e.PayloadJSON, &p) != nil {
			return
		}
		o := p.Handoff
		if o == nil {
			o = p.Offer
		}
		if o == nil {
			return
		}
		byID[o.ID] = &handoffView{ID: o.ID, TaskID: o.TaskID, FromActor: o.FromActor, ToActor: o.ToActor,
			ToSession: deref(o.ToSessionID), Summary: o.Summary, ExpiresAt: o.ExpiresAt, Status: "pending"}
	case "handoff.accepted", "handoff.declined", "handoff.expired":
		if o, ok := byID[e.EntityID]; ok {
			o.Status = e.Type[len("handoff."):]
		}
	}
}

// offerHistory is a store on a file whose clock the test moves.
type offerHistory struct {
	t    *testing.T
	ctx  context.Context
	s    *store.Store
	now  time.Time
	root string
	ws   string
	keys int
}

func newOfferHistory(t *testing.T) *offerHistory {
	dir := t.TempDir()
	h := &offerHistory{t: t, ctx: context.Background(), now: time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC), root: filepath.Join(dir, "repo")}
	s, err := backend.Open(h.ctx, backend.Options{Path: filepath.Join(dir, "collab.sqlite"), Now: func() time.Time { return h.now }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	h.s = s
	if err := os.Mkdir(h.root, 0o700); err != nil {
		t.Fatal(err)
	}
	return h
}

func (h *offerHistory) key() string {
	h.keys++
	return fmt.Sprintf("key-%d", h.keys)
}

// start starts a session at the repository and learns the workspace.
func (h *offerHistory) start(actor string) store.Credential {
	ss, err := h.s.StartSession(h.ctx, store.StartSessionInput{RootPath: h.root, Actor: actor})
	if err != nil {
		h.t.Fatal(err)
	}
	h.ws = ss.Session.WorkspaceID
	return store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
}

// held creates a task and claims it as who; it returns the lease to offer.
func (h *offerHistory) held(who store.Actor, id string) store.LeaseInput {
	return h.heldAs(who, id, nil)
}

// heldAs is held with a completion policy (nil: the default).
func (h *offerHistory) heldAs(who store.Actor, id string, policy *string) store.LeaseInput {
	created := must(h.s.CreateTask(h.ctx, who, store.CreateTaskInput{WorkspaceID: h.ws, IdempotencyKey: h.key(), TaskID: &id, Title: id,
		PathScopes: []string{id + "/**"}, CompletionPolicy: policy}))(h.t)
	claimed := must(h.s.ClaimTask(h.ctx, who, store.ClaimInput{WorkspaceID: h.ws, TaskID: id, IdempotencyKey: h.key(),
		ExpectedVersion: created.Task.Version}))(h.t)
	return store.LeaseInput{WorkspaceID: h.ws, TaskID: id, LeaseID: *claimed.Task.LeaseID, IdempotencyKey: h.key(), ExpectedVersion: claimed.Task.Version}
}

// offer offers the task lease holds to a label or a session.
func (h *offerHistory) offer(who store.Actor, lease store.LeaseInput, toActor, toSession string, ttl int64) store.HandoffAnswer {
	in := store.OfferInput{Lease: lease, Summary: "over to you: " + lease.TaskID, TTLSeconds: &ttl}
	if toSession != "" {
		in.ToSessionID = &toSession
	} else {
		in.ToActor = &toActor
	}
	return must(h.s.OfferHandoff(h.ctx, who, in))(h.t)
}

// respond answers an offer as who.
func (h *offerHistory) respond(who store.Actor, o store.HandoffAnswer, response string) {
	must(h.s.RespondToHandoff(h.ctx, who, store.RespondInput{WorkspaceID: h.ws, HandoffID: o.Handoff.ID,
		IdempotencyKey: h.key(), ExpectedVersion: o.Task.Version, Response: response}))(h.t)
}

// release gives up the lease the offer was made on, which expires it.
func (h *offerHistory) release(who store.Actor, lease store.LeaseInput, o store.HandoffAnswer) {
	lease.IdempotencyKey, lease.ExpectedVersion = h.key(), o.Task.Version
	must(h.s.ReleaseLease(h.ctx, who, lease, nil))(h.t)
}

// legacyOffers: label offers accepted, declined, expired by a release,
// and one left to lapse.
func (h *offerHistory) legacyOffers() {
	h.start("keeper")
	carol, dave := store.LabelActor("carol"), store.LabelActor("dave")
	h.respond(dave, h.offer(carol, h.held(carol, "legacy-accepted"), "dave", "", 600), "accept")
	h.respond(dave, h.offer(carol, h.held(carol, "legacy-declined"), "dave", "", 600), "decline")
	lease := h.held(carol, "legacy-released")
	h.release(carol, lease, h.offer(carol, lease, "dave", "", 600))
	h.offer(carol, h.held(carol, "legacy-lapsing"), "dave", "", 60)
	h.now = h.now.Add(2 * time.Minute)
}

// sessionOffers: session offers accepted, declined, expired when their
// target ended, and one still live.
func (h *offerHistory) sessionOffers() {
	a, b, c := h.start("alice"), h.start("bob"), h.start("cy")
	asA, asB := store.SessionActor(a), store.SessionActor(b)
	h.respond(asB, h.offer(asA, h.held(asA, "session-accepted"), "", b.SessionID, 600), "accept")
	h.respond(asB, h.offer(asA, h.held(asA, "session-declined"), "", b.SessionID, 600), "decline")
	h.offer(asA, h.held(asA, "session-to-cy"), "", c.SessionID, 600)
	if _, err := h.s.EndSession(h.ctx, c, nil); err != nil {
		h.t.Fatal(err)
	}
	h.offer(asA, h.held(asA, "session-live"), "", b.SessionID, 600)
}

// must fails the test on a mutation's error and returns its fresh value.
func must[T any](a *answer.Of[T], err error) func(t *testing.T) T {
	return func(t *testing.T) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		v, ok := a.Value()
		if !ok {
			t.Fatal("a fresh mutation answered as a replay")
		}
		return v
	}
}
