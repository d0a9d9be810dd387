package engine

import (
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/journal"
)

// Head is a workspace's journal position: the anchor of its newest event
// (sequence 0 and journal.GenesisHash for an empty journal). It is the one
// type for "where a workspace's journal stands"; a session's cursor and a
// client's anchor are the journal.Anchor inside it.
type Head struct {
	WorkspaceID string
	journal.Anchor
}

// NewWorkspace is a workspace to create.
type NewWorkspace struct {
	ID            string
	EpochID       string
	RootPath      string
	Name          string
	RepositoryKey string
	CreatedAt     string
}

// WorktreeFacts is what a worktree row records: its identity and the Git
// state last observed there.
type WorktreeFacts struct {
	gitstate.Identity
	Branch  *string
	HeadSHA *string
	Dirty   *bool
}

// FactsOf combines an identity with the checkpoint observed in it.
func FactsOf(id gitstate.Identity, cp gitstate.Checkpoint) WorktreeFacts {
	return WorktreeFacts{Identity: id, Branch: cp.Branch, HeadSHA: cp.HeadSHA, Dirty: cp.Dirty}
}

// ReceiptScope names one idempotency receipt: receipts are unique per
// (workspace, actor, key). Actor is a legacy label, or "session:<id>" for
// a credential-bound session, so one session's keys never collide with
// another's or with a label's.
type ReceiptScope struct {
	WorkspaceID string
	Actor       string
	Key         string
}

// Receipt is a stored idempotency record: the operation and the hash of
// its canonical request, and the response bytes in the stored form.
type Receipt struct {
	Operation   string
	RequestHash string
	Response    []byte
}

// Session is a credential-bound coordination session. TokenHash is the
// SHA-256 of its bearer token; it is never rendered (json:"-") and never
// leaves the rules.
type Session struct {
	ID                     string         `json:"id"`
	WorkspaceID            string         `json:"workspace_id"`
	WorktreeID             string         `json:"worktree_id"`
	Actor                  string         `json:"actor"`
	Role                   *string        `json:"role"`
	ParentSessionID        *string        `json:"parent_session_id"`
	Status                 SessionStatus  `json:"status"`
	Generation             int64          `json:"generation"`
	JoinedAt               string         `json:"joined_at"`
	LastSeenAt             string         `json:"last_seen_at"`
	EndedAt                *string        `json:"ended_at"`
	Cursor                 journal.Anchor `json:"cursor"`
	CursorVersion          int64          `json:"cursor_version"`
	ResetGeneration        int64          `json:"reset_generation"`
	CursorRecoveryRequired bool           `json:"cursor_recovery_required"`

	TokenHash string `json:"-"`
}

// SessionStatus is a coordination session's state.
type SessionStatus string

// The session states: active until ended, never back.
const (
	SessionActive SessionStatus = "active"
	SessionEnded  SessionStatus = "ended"
)

// Workspace is one repository's shared journal.
type Workspace struct {
	ID                string `json:"id"`
	EpochID           string `json:"epoch_id"`
	RootPath          string `json:"root_path"`
	RepositoryKey     string `json:"repository_key"`
	Name              string `json:"name"`
	CreatedAt         string `json:"created_at"`
	EventHeadSequence int64  `json:"event_head_sequence"`
	EventHeadHash     string `json:"event_head_hash"`
}

// Worktree is one registered checkout of a workspace's repository.
type Worktree struct {
	ID               string  `json:"id"`
	WorkspaceID      string  `json:"workspace_id"`
	RootPath         string  `json:"root_path"`
	RepositoryKey    string  `json:"repository_key"`
	GitCommonDirHash *string `json:"git_common_dir_hash"`
	Branch           *string `json:"branch"`
	HeadSHA          *string `json:"head_sha"`
	Dirty            *bool   `json:"dirty"`
	RegisteredAt     string  `json:"registered_at"`
	LastSeenAt       string  `json:"last_seen_at"`
	// Fingerprint is compared but never rendered.
	Fingerprint string `json:"-"`
}
