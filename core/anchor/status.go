package anchor

import "context"

// The five anchor states a Status can report.
const (
	StatusUnanchored = "unanchored"
	StatusPending    = "anchor_pending"
	StatusAnchored   = "anchored"
	StatusStale      = "anchor_stale"
	StatusConflict   = "anchor_conflict"
)

// Journal is what the check needs from the event store.
type Journal interface {
	// VerifyFull recomputes the whole chain of the workspace; false means invalid.
	VerifyFull(ctx context.Context, workspaceID string) (bool, error)
	// EventHashAt returns the stored hash of the event at sequence if it forms a chain-valid one-event page.
	EventHashAt(ctx context.Context, workspaceID string, sequence int64) (hash string, ok bool, err error)
}

// Head is the current head of a workspace journal: its epoch and the
// sequence and hash of its latest event.
type Head struct {
	WorkspaceID string
	EpochID     string
	Sequence    int64
	Hash        string
}

// Status is the result of collab_anchor_status. Its JSON form has exactly
// the keys workspace_id, head_sequence, head_hash, scope_note, status,
// ledger_readable, anchor, lag_events, reason, in that order; anchor and
// lag_events are null when not applicable. It never carries the ledger path.
// Its JSON form is written by MarshalJSON (render.go), as JSON.stringify
// writes it.
type Status struct {
	WorkspaceID    string `json:"workspace_id"`
	HeadSequence   int64  `json:"head_sequence"`
	HeadHash       string `json:"head_hash"`
	ScopeNote      string `json:"scope_note"`
	Status         string `json:"status"`
	LedgerReadable bool   `json:"ledger_readable"`
	Anchor         *Ref   `json:"anchor"`
	LagEvents      *int64 `json:"lag_events"`
	Reason         string `json:"reason"`
}

// Ref describes the one ledger entry a Status is based on. Strings copied
// from the ledger are clamped (control characters become spaces; over-long
// values are cut to a fixed number of UTF-16 units and end in "…"), so a
// hostile ledger cannot inject layout or bulk into the tool result. Optional
// members are null when absent or not of the expected JSON type. A copied
// string may hold an unpaired UTF-16 surrogate, stored as WTF-8 (see
// core/canon): one the ledger escaped, or the high half of a pair that a
// clamp cut. MarshalJSON (render.go) writes it back as the \udxxx escape
// the reference writes; other renderers see three ill-formed bytes.
type Ref struct {
	Sequence        int64    `json:"sequence"`
	HeadHash        string   `json:"head_hash"`
	Network         string   `json:"network"`
	CAIP2           *string  `json:"caip2"`
	TxHash          *string  `json:"tx_hash"`
	Status          string   `json:"status"`
	SubmittedAt     *string  `json:"submitted_at"`
	ConfirmedAt     *string  `json:"confirmed_at"`
	ConfirmedHeight *float64 `json:"confirmed_height"`
}
