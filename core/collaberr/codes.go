package collaberr

// Code is a stable, machine-readable refusal code: the "error" field of a
// refused tool call. Every code collab can emit is declared below and
// described in Registry; TestEveryEmittedCodeIsRegistered scans the source
// tree and fails when a refusal is built from a code that is not.
type Code string

// Input: a value the caller sent is malformed or out of range.
const (
	InvalidArtifactKind         Code = "invalid_artifact_kind"
	InvalidCompletionPolicy     Code = "invalid_completion_policy"
	InvalidDeclaredCapabilities Code = "invalid_declared_capabilities"
	InvalidDeclaredCapability   Code = "invalid_declared_capability"
	InvalidDependencies         Code = "invalid_dependencies"
	InvalidDependency           Code = "invalid_dependency"
	InvalidEventLimit           Code = "invalid_event_limit"
	InvalidEvidenceRef          Code = "invalid_evidence_ref"
	InvalidEvidenceRefs         Code = "invalid_evidence_refs"
	InvalidExpectedVersion      Code = "invalid_expected_version"
	InvalidGitObjectID          Code = "invalid_git_object_id"
	InvalidHandoffResponse      Code = "invalid_handoff_response"
	InvalidIdempotencyKey       Code = "invalid_idempotency_key"
	InvalidLimit                Code = "invalid_limit"
	InvalidPathScope            Code = "invalid_path_scope"
	InvalidPathScopes           Code = "invalid_path_scopes"
	InvalidPresence             Code = "invalid_presence"
	InvalidPresenceTTL          Code = "invalid_presence_ttl"
	InvalidRecoveryAction       Code = "invalid_recovery_action"
	InvalidReportConfidence     Code = "invalid_report_confidence"
	InvalidReportKind           Code = "invalid_report_kind"
	InvalidReviewOutcome        Code = "invalid_review_outcome"
	InvalidRuntimeKind          Code = "invalid_runtime_kind"
	InvalidSessionListLimit     Code = "invalid_session_list_limit"
	InvalidSHA256               Code = "invalid_sha256"
	InvalidTTL                  Code = "invalid_ttl"
	InvalidWorkMode             Code = "invalid_work_mode"
)

// Input: one text or identifier field is empty, too long, holds NUL or is
// not valid Unicode (the invalid_<field> family; see Invalid).
const (
	InvalidActor            Code = "invalid_actor"
	InvalidAuthorityBasis   Code = "invalid_authority_basis"
	InvalidAuthorityScope   Code = "invalid_authority_scope"
	InvalidBlocker          Code = "invalid_blocker"
	InvalidBody             Code = "invalid_body"
	InvalidClientInstanceID Code = "invalid_client_instance_id"
	InvalidConfidenceBasis  Code = "invalid_confidence_basis"
	InvalidDecision         Code = "invalid_decision"
	InvalidDescription      Code = "invalid_description"
	InvalidHandoffID        Code = "invalid_handoff_id"
	InvalidLabel            Code = "invalid_label"
	InvalidLeaseID          Code = "invalid_lease_id"
	InvalidLimits           Code = "invalid_limits"
	InvalidMediaType        Code = "invalid_media_type"
	InvalidMessage          Code = "invalid_message"
	InvalidModelLabel       Code = "invalid_model_label"
	InvalidName             Code = "invalid_name"
	InvalidNote             Code = "invalid_note"
	InvalidParentSessionID  Code = "invalid_parent_session_id"
	InvalidProviderLabel    Code = "invalid_provider_label"
	InvalidRationale        Code = "invalid_rationale"
	InvalidReason           Code = "invalid_reason"
	InvalidRecoveryNote     Code = "invalid_recovery_note"
	InvalidRole             Code = "invalid_role"
	InvalidSessionID        Code = "invalid_session_id"
	InvalidSummary          Code = "invalid_summary"
	InvalidTargetReportID   Code = "invalid_target_report_id"
	InvalidTaskID           Code = "invalid_task_id"
	InvalidTitle            Code = "invalid_title"
	InvalidToActor          Code = "invalid_to_actor"
	InvalidToSessionID      Code = "invalid_to_session_id"
	InvalidTopic            Code = "invalid_topic"
	InvalidURI              Code = "invalid_uri"
	InvalidWorkspaceID      Code = "invalid_workspace_id"
)

// Sessions, workspaces and credentials.
const (
	ActorRequired                   Code = "actor_required"
	GitIdentityUnavailable          Code = "git_identity_unavailable"
	IdempotencyConflict             Code = "idempotency_conflict"
	ParentSessionMismatch           Code = "parent_session_mismatch"
	RepositoryPartitioned           Code = "repository_partitioned"
	SessionAlreadyBound             Code = "session_already_bound"
	SessionAuthFailed               Code = "session_auth_failed"
	SessionDirectoryNotPrivate      Code = "session_directory_not_private"
	SessionFileExists               Code = "session_file_exists"
	SessionFileInvalid              Code = "session_file_invalid"
	SessionFileNotPrivate           Code = "session_file_not_private"
	SessionFilePathRequired         Code = "session_file_path_required"
	SessionFileReadFailed           Code = "session_file_read_failed"
	SessionFileRemoveFailed         Code = "session_file_remove_failed"
	SessionFileUnsafe               Code = "session_file_unsafe"
	SessionFileWriteFailed          Code = "session_file_write_failed"
	SessionHasActiveLeases          Code = "session_has_active_leases"
	SessionNotBound                 Code = "session_not_bound"
	SessionNotFound                 Code = "session_not_found"
	SessionRequiredForV2TaskOptions Code = "session_required_for_v2_task_options"
	SessionWorkspaceMismatch        Code = "session_workspace_mismatch"
	WorkspaceIdentityCollision      Code = "workspace_identity_collision"
	WorkspaceNotDirectory           Code = "workspace_not_directory"
	WorkspaceNotFound               Code = "workspace_not_found"
	WorktreeIdentityChanged         Code = "worktree_identity_changed"
	WorktreeNotFound                Code = "worktree_not_found"
	WorktreeUnavailable             Code = "worktree_unavailable"
)

// Cursors and the journal.
const (
	AmbiguousCursor         Code = "ambiguous_cursor"
	CursorAhead             Code = "cursor_ahead"
	CursorEpochMismatch     Code = "cursor_epoch_mismatch"
	CursorForkDetected      Code = "cursor_fork_detected"
	CursorMismatch          Code = "cursor_mismatch"
	CursorRecoveryRequired  Code = "cursor_recovery_required"
	CursorRegression        Code = "cursor_regression"
	CursorResetReceiptStale Code = "cursor_reset_receipt_stale"
	CursorResetRequired     Code = "cursor_reset_required"
	CursorVersionConflict   Code = "cursor_version_conflict"
	InvalidCursor           Code = "invalid_cursor"
)

// Presence (self-declared hints).
const (
	SessionInstanceConflict Code = "session_instance_conflict"
	SessionInstanceEnded    Code = "session_instance_ended"
	SessionLeft             Code = "session_left"
	SessionVersionConflict  Code = "session_version_conflict"
)

// Tasks and leases.
const (
	DependenciesIncomplete  Code = "dependencies_incomplete"
	EditScopeRequired       Code = "edit_scope_required"
	ExpectedBaseMismatch    Code = "expected_base_mismatch"
	LeaseExpired            Code = "lease_expired"
	LeaseNotActive          Code = "lease_not_active"
	LeaseNotHolder          Code = "lease_not_holder"
	PathScopeConflict       Code = "path_scope_conflict"
	RecoveryBlockerRequired Code = "recovery_blocker_required"
	RecoveryNotRequired     Code = "recovery_not_required"
	RecoveryRequired        Code = "recovery_required"
	TaskBlocked             Code = "task_blocked"
	TaskClaimed             Code = "task_claimed"
	TaskCompleted           Code = "task_completed"
	TaskExists              Code = "task_exists"
	TaskNotBlocked          Code = "task_not_blocked"
	TaskNotFound            Code = "task_not_found"
	VersionConflict         Code = "version_conflict"
)

// Completion, review and Git checkpoints.
const (
	CheckpointWorkspaceMismatch Code = "checkpoint_workspace_mismatch"
	CompletionChallenged        Code = "completion_challenged"
	CompletionReportObsolete    Code = "completion_report_obsolete"
	GitCheckpointIncomplete     Code = "git_checkpoint_incomplete"
	GitCheckpointStale          Code = "git_checkpoint_stale"
	ReviewStateInvalid          Code = "review_state_invalid"
	SelfReviewForbidden         Code = "self_review_forbidden"
	TaskNotPendingReview        Code = "task_not_pending_review"
	WorktreeObservationStale    Code = "worktree_observation_stale"
)

// Handoffs.
const (
	HandoffExpired           Code = "handoff_expired"
	HandoffNotFound          Code = "handoff_not_found"
	HandoffNotRecipient      Code = "handoff_not_recipient"
	HandoffPending           Code = "handoff_pending"
	HandoffResolved          Code = "handoff_resolved"
	HandoffSourceChanged     Code = "handoff_source_changed"
	HandoffTargetUnavailable Code = "handoff_target_unavailable"
	InvalidHandoff           Code = "invalid_handoff"
)

// Reports and decisions.
const (
	DecisionAuthorityRequired Code = "decision_authority_required"
	EvidenceNotFound          Code = "evidence_not_found"
	InvalidReportRelation     Code = "invalid_report_relation"
	ReportAuthorMismatch      Code = "report_author_mismatch"
	ReportNotFound            Code = "report_not_found"
	ReportTargetMismatch      Code = "report_target_mismatch"
	ReportTargetRequired      Code = "report_target_required"
	ReportTaskMismatch        Code = "report_task_mismatch"
)

// Delivery receipts (an extension).
const (
	DeliveryMarkConflict   Code = "delivery_mark_conflict"
	DeliveryNotAddressed   Code = "delivery_not_addressed"
	InvalidDeliveryChannel Code = "invalid_delivery_channel"
	InvalidDeliveryMark    Code = "invalid_delivery_mark"
)

// Independence claims (an extension).
const (
	IndependenceClaimNotFound   Code = "independence_claim_not_found"
	IndependenceNotClaimant     Code = "independence_not_claimant"
	InvalidIndependenceSubject  Code = "invalid_independence_subject"
	InvalidIndependenceDuration Code = "invalid_independence_duration"
)

// Database and migration.
const (
	DatabaseApplicationMismatch     Code = "database_application_mismatch"
	DatabaseCorrupt                 Code = "database_corrupt"
	DatabaseFileReplaced            Code = "database_file_replaced"
	DatabaseFileUnsafe              Code = "database_file_unsafe"
	DatabaseForeignKeyFailure       Code = "database_foreign_key_failure"
	DatabaseJournalInvalid          Code = "database_journal_invalid"
	DatabaseMigrationReceiptInvalid Code = "database_migration_receipt_invalid"
	DatabasePartialMigration        Code = "database_partial_migration"
	DatabasePragmaUnavailable       Code = "database_pragma_unavailable"
	DatabaseSchemaMismatch          Code = "database_schema_mismatch"
	DatabaseSidecarUnsafe           Code = "database_sidecar_unsafe"
	DatabaseVersionTooNew           Code = "database_version_too_new"
	DatabaseWriteGuardInvalid       Code = "database_write_guard_invalid"
	MigrationForeignKeyFailure      Code = "migration_foreign_key_failure"
	MigrationIdentityCollision      Code = "migration_identity_collision"
	MigrationIdentityMissing        Code = "migration_identity_missing"
	MigrationIntegrityFailure       Code = "migration_integrity_failure"
	MigrationJournalChanged         Code = "migration_journal_changed"
	MigrationSessionRowsChanged     Code = "migration_session_rows_changed"
	MigrationSourceChanged          Code = "migration_source_changed"
	WriteOutcomeUnknown             Code = "write_outcome_unknown"
)

// Search (an extension).
const (
	InvalidBound           Code = "invalid_bound"
	InvalidKind            Code = "invalid_kind"
	InvalidOrder           Code = "invalid_order"
	InvalidQuery           Code = "invalid_query"
	QueryTooComplex        Code = "query_too_complex"
	SearchIndexUnavailable Code = "search_index_unavailable"
)

// Host setup (an extension).
const (
	HermesConfigInvalid     Code = "hermes_config_invalid"
	HermesConfigUnsupported Code = "hermes_config_unsupported"
	HermesProfileInvalid    Code = "hermes_profile_invalid"
	HermesProfileNotFound   Code = "hermes_profile_not_found"
)

// Internal failures.
const (
	InternalError Code = "internal_error"
)

// Invalid returns the code of the invalid_<field> family for a text or
// identifier field: normalize.CleanText and normalize.ID refuse with it.
// Every field name passed here must have its constant above; the source
// scan of TestEveryEmittedCodeIsRegistered checks each literal field name
// handed to a function's field parameter.
func Invalid(field string) Code {
	return Code("invalid_" + field)
}
