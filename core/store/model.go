package store

import (
	"github.com/agenttool/collab/core/store/engine"
)

// The types below are the public shapes of the collab tools. Field order is
// the order in which @agenttool/collab emits keys, so rendered results read
// the same in either implementation.

// Workspace is one repository's shared journal.
type Workspace = engine.Workspace

// Worktree is one registered checkout of a workspace's repository.
type Worktree = engine.Worktree

// Task is one unit of coordinated work.
type Task = engine.Task

// TaskWithArtifacts is a task as collab_task_get returns it.
type TaskWithArtifacts = engine.TaskWithArtifacts

// Artifact is a reference attached to a task; the bytes stay elsewhere.
type Artifact = engine.Artifact

// Decision is a legacy-mode decision record.
type Decision = engine.Decision

// CoordinationSession is a credential-bound session as tools show it; the
// token hash never leaves the store (it is not rendered).
type CoordinationSession = engine.Session

// Report is a structured, append-only statement by a session.
type Report = engine.Report

// Handoff is an offer to pass a task's lease to another actor or session.
type Handoff = engine.Handoff

// rowScanner is what *sql.Row and *sql.Rows offer.
type rowScanner interface{ Scan(dest ...any) error }
