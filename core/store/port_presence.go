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

// Presences are the presence hints. None of them is journaled.
type Presences interface {
	// PresenceByID returns one presence hint; found is false when there is
	// none of that id. DeclaredCapabilities is never nil, here and below.
	PresenceByID(ctx context.Context, id string) (p Presence, found bool, err error)
	// PresenceOfClient returns the workspace's presence hint of one client
	// instance (there is at most one).
	PresenceOfClient(ctx context.Context, workspaceID, clientInstanceID string) (p Presence, found bool, err error)
	// InsertPresence stores a new presence hint; a second hint for the
	// same (workspace, client instance) fails.
	InsertPresence(ctx context.Context, p NewPresence) error
	// PresenceList lists a workspace's presence hints in state at now,
	// newest first (by joined_at, then id, both descending), at most limit
	// of them; never nil.
	PresenceList(ctx context.Context, workspaceID string, state PresenceState, now string, limit int64) ([]Presence, error)
	// PresenceBySeen lists every presence hint of a workspace, most
	// recently seen first (by last_seen_at descending, then id); never nil.
	PresenceBySeen(ctx context.Context, workspaceID string) ([]Presence, error)
	// RefreshPresence records a heartbeat: the version increments, the
	// hint was last seen at now and expires at expiresAt.
	RefreshPresence(ctx context.Context, id, now, expiresAt string) error
	// MarkPresenceLeft records that the hint left at now; the version
	// increments.
	MarkPresenceLeft(ctx context.Context, id, now string) error
}
