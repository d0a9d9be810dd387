package store

import "context"

// Presence is a self-declared, unauthenticated routing hint (a v0.2
// sessions row). Protocol, CapabilityBasis and Presence are the rules' to
// set; an engine leaves them empty.
type Presence struct {
	Protocol             string   `json:"protocol"`
	ID                   string   `json:"id"`
	WorkspaceID          string   `json:"workspace_id"`
	EpochID              string   `json:"epoch_id"`
	ClientInstanceID     string   `json:"client_instance_id"`
	ActorLabel           string   `json:"actor_label"`
	ActorKey             string   `json:"actor_key"`
	RuntimeKind          string   `json:"runtime_kind"`
	ProviderLabel        *string  `json:"provider_label"`
	ModelLabel           *string  `json:"model_label"`
	DeclaredCapabilities []string `json:"declared_capabilities"`
	CapabilityBasis      string   `json:"capability_basis"`
	Version              int64    `json:"version"`
	JoinedAt             string   `json:"joined_at"`
	LastSeenAt           string   `json:"last_seen_at"`
	PresenceExpiresAt    string   `json:"presence_expires_at"`
	Presence             string   `json:"presence"`
	LeftAt               *string  `json:"left_at"`
}

// NewPresence is a presence hint to store: version 1, joined and last seen
// at JoinedAt, expiring at ExpiresAt, not left.
type NewPresence struct {
	ID                   string
	WorkspaceID          string
	EpochID              string
	ClientInstanceID     string
	ActorLabel           string
	ActorKey             string
	RuntimeKind          string
	ProviderLabel        *string
	ModelLabel           *string
	DeclaredCapabilities []string
	JoinedAt             string
	ExpiresAt            string
}

// PresenceKey names one presence hint: by ID when it is not empty, else by
// the (workspace, client instance) pair, which is unique.
type PresenceKey struct {
	ID               string
	WorkspaceID      string
	ClientInstanceID string
}

// PresenceFilter selects a workspace's presence hints. The zero filter
// selects every hint of the workspace.
type PresenceFilter struct {
	// State keeps the hints in that state at At (PresenceAny keeps all).
	// It is the engine's to apply, before Limit, so that a limited listing
	// reads no more rows than it returns; presenceAt is the same rule for
	// one hint.
	State PresenceState
	// At is the moment State is judged at; required with a state other
	// than PresenceAny.
	At string
	// Limit, when positive, keeps the first Limit hints of the order.
	Limit int64
}

// PresenceState selects presence hints by their state at a moment.
type PresenceState string

// The states a presence listing can select.
const (
	// PresenceAny selects every hint.
	PresenceAny PresenceState = ""
	// PresenceLive selects hints not left whose expiry is after the moment.
	PresenceLive PresenceState = "live"
	// PresenceStale selects hints not left whose expiry is at or before
	// the moment.
	PresenceStale PresenceState = "stale"
	// PresenceLeft selects hints that left.
	PresenceLeft PresenceState = "left"
)

// Presences are the presence hints, as rows. None of them is journaled;
// what a heartbeat or a leave changes is decided in presence_rows.go.
type Presences interface {
	// Presence returns the hint k names; found is false when there is
	// none. DeclaredCapabilities is never nil, here and below.
	Presence(ctx context.Context, k PresenceKey) (p Presence, found bool, err error)
	// Presences lists the hints of a workspace that f selects, newest
	// first (by joined_at, then id, both descending, in byte order); never
	// nil. An unknown state is an error.
	Presences(ctx context.Context, workspaceID string, f PresenceFilter) ([]Presence, error)
	// InsertPresence stores a new presence hint; a second hint for the
	// same (workspace, client instance) fails.
	InsertPresence(ctx context.Context, p NewPresence) error
	// UpdatePresence stores after over before, a row read in this
	// transaction, writing only the columns in which the two differ. Only
	// the version, last_seen_at, presence_expires_at and left_at change,
	// and the version by exactly one: any other change is refused, and so
	// is a stored row no longer at before's version (nothing is written).
	UpdatePresence(ctx context.Context, before, after Presence) error
}
