package wake

import (
	"fmt"
	"strings"
	"time"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
)

// LeaseWindow is how close to its expiry a held lease must be before a
// summary mentions it.
const LeaseWindow = 5 * time.Minute

// CandidateLimit bounds the events one summary inspects, so a check stays
// fast on a journal with a huge unread backlog; Summary.Truncated says so.
const CandidateLimit = 500

// Summary is what is new for a viewer: how many events are unread after
// its position and which of them (plus which of its leases) concern it.
type Summary struct {
	WorkspaceID string         `json:"workspace_id"`
	SessionID   string         `json:"session_id,omitempty"`
	Actor       string         `json:"actor"`
	Active      bool           `json:"active"`
	Head        journal.Anchor `json:"head"`
	After       int64          `json:"after_sequence"`
	Unread      int64          `json:"unread_events"`
	Notices     []Notice       `json:"notices"`
	Counts      map[Kind]int   `json:"counts"`
	// Truncated is true when more candidate events lay unread than one
	// check inspects; the notices then cover the oldest of them.
	Truncated bool `json:"truncated"`
	// Windowed is true when the viewer is more than store.WakeWindow
	// events behind: only the newest unread events were inspected (every
	// pending offer to the viewer is still listed).
	Windowed bool `json:"windowed"`
}

// Summarise applies the relevance rules to a snapshot at time now.
func Summarise(s store.WakeSnapshot, now time.Time) Summary {
	out := Summary{WorkspaceID: s.WorkspaceID, SessionID: s.SessionID, Actor: s.Actor, Active: s.Active, Head: s.Head,
		After: s.After, Unread: max(s.Head.Sequence-s.After, 0), Notices: []Notice{}, Counts: map[Kind]int{},
		Truncated: len(s.Candidates) >= CandidateLimit, Windowed: s.Windowed}
	v := newViewer(s)
	seen := map[string]bool{}
	for _, e := range s.Candidates {
		if n, ok := v.relevant(e); ok {
			out.add(n)
			seen[e.EntityID] = true
		}
	}
	for _, o := range s.PendingOffers {
		if n, ok := olderOffer(o, s, seen, now); ok {
			out.add(n)
		}
	}
	for _, t := range s.Tasks {
		if n, ok := expiring(t, now); ok {
			out.add(n)
		}
	}
	return out
}

// add records n with every token-shaped secret in its text, its sender
// and its task id redacted (Redact), whoever wrote it.
func (s *Summary) add(n Notice) {
	n.Text, n.From, n.TaskID = Redact(n.Text), Redact(n.From), Redact(n.TaskID)
	s.Notices = append(s.Notices, n)
	s.Counts[n.Kind]++
}

// olderOffer reports a pending, unexpired offer to the viewer that the
// inspected events did not show: it was offered before the window, so it
// is unread only if the window cut it off.
func olderOffer(o store.WakeOffer, s store.WakeSnapshot, seen map[string]bool, now time.Time) (Notice, bool) {
	if seen[o.ID] || !s.Windowed {
		return Notice{}, false
	}
	if at, err := store.ParseTime(o.ExpiresAt); err != nil || !at.After(now) {
		return Notice{}, false
	}
	return Notice{Kind: HandoffOffered, TaskID: o.TaskID, From: o.FromActor, Subject: &store.Subject{Kind: store.SubjectHandoff, ID: o.ID},
		Text: fmt.Sprintf("handoff of task %s offered to you by %s: %s", o.TaskID, o.FromActor, clip(o.Summary))}, true
}

// expiring reports a claimed task whose lease ends within LeaseWindow.
func expiring(t store.WakeTask, now time.Time) (Notice, bool) {
	if t.Status != "claimed" || t.LeaseExpiresAt == nil {
		return Notice{}, false
	}
	at, err := store.ParseTime(*t.LeaseExpiresAt)
	if err != nil || at.Sub(now) > LeaseWindow {
		return Notice{}, false
	}
	left := at.Sub(now).Round(time.Second)
	text := fmt.Sprintf("your lease on task %s expires in %s; renew it or release the task", t.ID, left)
	if left <= 0 {
		text = fmt.Sprintf("your lease on task %s has expired; renew it or release the task", t.ID)
	}
	return Notice{Kind: LeaseExpiring, TaskID: t.ID, Text: text}, true
}

// New reports whether anything concerns the viewer. Unread events that
// concern nobody in particular do not count.
func (s Summary) New() bool { return len(s.Notices) > 0 }

// Line renders the summary as one short sentence for a model's context,
// e.g. "collab: 3 unread coordination events, 1 handoff offered to you —
// call collab_next". It is empty when nothing concerns the viewer.
func (s Summary) Line() string {
	if !s.New() {
		return ""
	}
	var parts []string
	for _, k := range Kinds {
		if c := s.Counts[k]; c > 0 {
			parts = append(parts, phrase(k, c))
		}
	}
	return fmt.Sprintf("collab: %s, %s — call collab_next", plural(s.Unread, "unread coordination event"), strings.Join(parts, ", "))
}

func phrase(k Kind, n int) string {
	switch k {
	case HandoffOffered:
		return plural(int64(n), "handoff") + " offered to you"
	case ChangesRequested:
		return plural(int64(n), "review") + " requesting changes"
	case ReportAddressed:
		return plural(int64(n), "report") + " addressed to you"
	case HandoffAnswered:
		return plural(int64(n), "answer") + " to your handoffs"
	case WorkAccepted:
		return plural(int64(n), "task") + " of yours accepted"
	case ClaimLost:
		return plural(int64(n), "claim") + " of yours ended"
	default:
		return plural(int64(n), "lease") + " about to expire"
	}
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
