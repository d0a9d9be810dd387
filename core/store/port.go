package store

// The storage port: what the coordination rules (this package) ask of a
// storage engine (package sqlite or package postgres, which import this
// package; core/backend opens the right one). The rules decide what
// happens: validation order, refusal codes, which events to append, lease
// and claim logic, recovery. An engine stores and finds
// the data they read and write, and gives the guarantees below. The
// records crossing the seam are plain Go values; no SQL and no JSON
// rendering crosses it.
//
// Guarantees every engine gives (docs/architecture.md restates them):
//
//   - Write runs its function in one transaction that commits entirely or
//     not at all. Writes that touch the same workspace are serialised: from
//     the first Head read inside a write transaction until it ends, no other
//     transaction can append to that workspace's journal, so sequences are
//     contiguous (1, 2, 3, … without gaps or duplicates) and every event's
//     prev_hash is the hash of the event before it.
//   - Transient contention (SQLite busy, PostgreSQL serialization failures
//     and deadlocks) is retried inside Write for a bounded window and never
//     surfaces as an error; Write may therefore call its function more than
//     once, so the function must have no effect outside the transaction.
//   - Receipts are unique per ReceiptScope (workspace, actor, key): of two
//     transactions inserting the same scope, one fails or waits and then
//     finds the other's receipt.
//   - A contested claim has one winner: the rules read a task and update it
//     inside one write transaction, and the engine's serialisation makes a
//     second claimant see the first one's committed claim.
//   - Read runs its function against one consistent snapshot.

import (
	"context"

	"github.com/agenttool/collab/core/journal"
)

// Engine stores the coordination journal of any number of workspaces.
type Engine interface {
	// Write runs fn in one write transaction and commits it when fn
	// returns nil; any error rolls everything back.
	Write(ctx context.Context, fn func(tx Tx) error) error
	// Read runs fn in one read-only snapshot.
	Read(ctx context.Context, fn func(tx Tx) error) error
	ChainReader // streams whole journals for journal.VerifyChain (chains.go)
	// Close releases the engine's resources.
	Close() error
}

// Tx is one transaction of an engine: the data the rules read and write,
// grouped by domain.
type Tx interface {
	Workspaces
	Journal
	Receipts
	Sessions
	Tasks
	TaskWrites
	TaskRecords
	PathClaims
	Handoffs
	Reports
	Decisions
	Evidence
	Presences
	Events
	Deliveries
	SessionHosts
	// TakeWriteGuard admits the session-plane writes that follow, until
	// release, in engines whose data older clients can also reach: a
	// SQLite file carries the v0.2 triggers that refuse session-plane
	// writes from clients holding no guard row. An engine no older client
	// reaches returns a release that does nothing. nonce is unique per
	// call.
	TakeWriteGuard(ctx context.Context, nonce string) (release func(ctx context.Context) error, err error)
}

// Workspaces are the journals' owners and the worktrees registered in
// them: rows the rules read by id, by root path or by repository, and
// write whole. Which workspace a repository's new worktree joins, and
// which repository a root path belongs to, are rules of this package
// (workspace.go, guard_read.go), not the engine's.
type Workspaces interface {
	// Workspace returns one workspace, its head included.
	Workspace(ctx context.Context, id string) (w Workspace, found bool, err error)
	// Workspaces lists the workspaces f selects, heads included, in
	// (created_at, id) order; never nil.
	Workspaces(ctx context.Context, f WorkspaceFilter) ([]Workspace, error)
	// CreateWorkspace stores a new workspace whose journal is empty (head
	// at sequence 0 and journal.GenesisHash), and its repository when the
	// repository is new.
	CreateWorkspace(ctx context.Context, w NewWorkspace) error
	// Worktree returns the worktree k names.
	Worktree(ctx context.Context, k WorktreeKey) (w Worktree, found bool, err error)
	// Worktrees lists a workspace's registered worktrees in
	// (registered_at, id) order; never nil.
	Worktrees(ctx context.Context, workspaceID string) ([]Worktree, error)
	// AddWorktree registers a worktree in a workspace, and its repository
	// when the repository is new.
	AddWorktree(ctx context.Context, workspaceID string, w WorktreeFacts, now string) error
	// UpdateWorktree stores after over before, a row read in this
	// transaction, writing only the columns in which the two differ (no
	// statement at all when none does). Only the Git state last observed
	// (branch, head, dirty) and last_seen_at change; a worktree's
	// identity and registration never do. The write is not fenced: the
	// row holds no version, and repeating it leaves the same row.
	UpdateWorktree(ctx context.Context, before, after Worktree) error
}

// WorkspaceFilter selects workspaces; its zero value selects every one.
// Each field narrows the list when it is not empty.
type WorkspaceFilter struct {
	// RepositoryKey keeps the repository's workspaces (a migration from
	// v0.1 may have left several).
	RepositoryKey string
	// RootPath keeps the workspace rooted there (root paths are unique).
	RootPath string
}

// WorktreeKey names one worktree: by ID when it is not empty, else by
// the root path it is registered at (root paths are unique).
type WorktreeKey struct {
	ID       string
	RootPath string
}

// Journal is the hash-chained event journal of each workspace.
type Journal interface {
	// Head returns the workspace's journal head; found is false when there
	// is no such workspace. Inside a write transaction the head stays
	// locked until the transaction ends.
	Head(ctx context.Context, workspaceID string) (h JournalHead, found bool, err error)
	// Append stores e, which extends the head read in this transaction
	// (e.Sequence is the head's sequence + 1, e.PrevHash its hash, e.Hash
	// computed by journal.Hasher), and moves the head to e. PayloadJSON is
	// stored byte for byte.
	Append(ctx context.Context, e *journal.Event) error
}

// Receipts are the idempotency records of mutations.
type Receipts interface {
	// FindReceipt returns the receipt stored for scope, if any.
	FindReceipt(ctx context.Context, scope ReceiptScope) (r Receipt, found bool, err error)
	// InsertReceipt stores r for scope; a second insert for the same scope
	// fails.
	InsertReceipt(ctx context.Context, scope ReceiptScope, r Receipt, createdAt string) error
}

// Sessions are the credential-bound coordination sessions: rows the
// rules read by id or by workspace, and write whole.
type Sessions interface {
	// Session returns one session by id, token hash included.
	Session(ctx context.Context, id string) (s CoordinationSession, found bool, err error)
	// Sessions lists a workspace's sessions in (joined_at, id) order,
	// only those in status when status is not empty; never nil.
	Sessions(ctx context.Context, workspaceID string, status SessionStatus) ([]CoordinationSession, error)
	// InsertSession stores a new active session at generation 1.
	InsertSession(ctx context.Context, s NewSession) error
	// UpdateSession stores after over the row before was read as,
	// writing only the columns in which the two differ (no statement at
	// all when none does); a session's id, workspace, worktree, actor,
	// role, parent and joined_at never change. A write that moves the
	// generation is fenced: it applies only while the stored row is still
	// at before's generation and status, and ok says whether it did. A
	// write that keeps the generation reports ok and may be held back
	// until the transaction's next statement that reads sessions, or its
	// commit.
	UpdateSession(ctx context.Context, before, after CoordinationSession) (ok bool, err error)
	// InsertCursorReset stores the audit record of a cursor reset; the
	// session's row itself moves by UpdateSession.
	InsertCursorReset(ctx context.Context, r CursorReset) error
}

// Tasks are the units of coordinated work and their artifacts. The rules
// compute each task's effective status; an engine returns it empty.
type Tasks interface {
	// Tasks lists the tasks of a workspace that f selects, in
	// (created_at, id) order; never nil.
	Tasks(ctx context.Context, workspaceID string, f TaskFilter) ([]Task, error)
	// Task returns one task of a workspace.
	Task(ctx context.Context, workspaceID, taskID string) (t Task, found bool, err error)
	// Artifacts lists a task's artifacts in (attached_at, id) order; never
	// nil.
	Artifacts(ctx context.Context, workspaceID, taskID string) ([]Artifact, error)
	// NewestTasks lists up to limit tasks of a workspace stored with
	// status and holding no lease expiry, the newest inserted first; never
	// nil. It walks tasks_workspace_status_idx from its end, so it costs
	// the tasks it returns, not the workspace's. A completed task holds no
	// lease, so for status completed these are the newest completed tasks.
	NewestTasks(ctx context.Context, workspaceID string, status TaskStatus, limit int) ([]Task, error)
	// CountTasks counts a workspace's tasks stored with status, from
	// tasks_workspace_status_idx alone.
	CountTasks(ctx context.Context, workspaceID string, status TaskStatus) (int, error)
}

// TaskFilter selects a workspace's tasks; its zero value selects every
// one. Each field narrows the list when it is not zero.
type TaskFilter struct {
	// Status keeps the tasks whose stored status it is.
	Status TaskStatus
	// ReviewStatus keeps the tasks whose review status it is.
	ReviewStatus ReviewStatus
	// Set keeps only the tasks still in play (see TaskSet); a read of
	// UnfinishedTasks costs what the unfinished tasks cost, however many
	// completed ones the history holds.
	Set TaskSet
	// HeldOrReportedBy keeps the tasks the viewer holds (is the assignee
	// of) or reported complete: as the session when its SessionID is not
	// empty, else as the actor label.
	HeldOrReportedBy Viewer
}

// TaskSet narrows a task list to the tasks still in play; its zero value,
// EveryTask, keeps them all.
type TaskSet int

// The sets a TaskFilter can keep.
const (
	// EveryTask keeps every task.
	EveryTask TaskSet = iota
	// UnfinishedTasks keeps the tasks stored as open, claimed or blocked,
	// read through the tasks' (workspace_id, status) index.
	UnfinishedTasks
	// UnsettledTasks keeps the unfinished tasks and the completed ones
	// whose review is pending. The second half has no index of its own
	// in the reference's schema: the engine reads the review state of
	// each completed task's row (never decoding it).
	UnsettledTasks
)

// ReadAheader is a Tx that can be told which reads come next, so that an
// engine behind a network round trip sends them together. ReadAhead runs
// reads against a recorder whose queries return nothing (so reads must not
// write, and what it learns is of no use); the reads it recorded are then
// sent with the first of them the transaction really makes, and answer
// each later one that asks for the same statement with the same
// arguments. A read that is not asked for costs the server its work and
// changes nothing else; one asked for after the transaction writes goes to
// the server again. An engine in the same process need not offer it.
type ReadAheader interface {
	ReadAhead(ctx context.Context, reads func(tx Tx))
}
