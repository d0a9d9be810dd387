package store

import "github.com/agenttool/collab/core/store/engine"

// The status types and values are defined with the records that carry
// them, in package engine; these names keep the rules and their callers
// reading store.TaskOpen, store.ReviewPending and so on.
type (
	TaskStatus       = engine.TaskStatus
	ReviewStatus     = engine.ReviewStatus
	HandoffStatus    = engine.HandoffStatus
	CompletionPolicy = engine.CompletionPolicy
	SessionStatus    = engine.SessionStatus
)

const (
	TaskOpen               = engine.TaskOpen
	TaskClaimed            = engine.TaskClaimed
	TaskBlocked            = engine.TaskBlocked
	TaskCompleted          = engine.TaskCompleted
	TaskLeaseExpired       = engine.TaskLeaseExpired
	TaskRecoveryRequired   = engine.TaskRecoveryRequired
	TaskReportedComplete   = engine.TaskReportedComplete
	TaskAccepted           = engine.TaskAccepted
	ReviewLegacyUnreviewed = engine.ReviewLegacyUnreviewed
	ReviewNotRequired      = engine.ReviewNotRequired
	ReviewPending          = engine.ReviewPending
	ReviewAccepted         = engine.ReviewAccepted
	ReviewChangesRequested = engine.ReviewChangesRequested
	HandoffPending         = engine.HandoffPending
	HandoffAccepted        = engine.HandoffAccepted
	HandoffDeclined        = engine.HandoffDeclined
	HandoffExpired         = engine.HandoffExpired
	CompletionReported     = engine.CompletionReported
	CompletionAccepted     = engine.CompletionAccepted
	SessionActive          = engine.SessionActive
	SessionEnded           = engine.SessionEnded
)
