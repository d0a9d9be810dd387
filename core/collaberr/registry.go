package collaberr

import (
	"strconv"

	"github.com/agenttool/collab/core/field"
)

// Entry documents one refusal code: when collab refuses with it and what
// the caller should do next. docs/errors.md is generated from Registry.
type Entry struct {
	Code Code
	// Area groups related codes in the generated documentation.
	Area string
	// When says what makes collab refuse with this code.
	When string
	// Do says what the caller should do about it.
	Do string
	// Extension marks a code of this implementation's own, which
	// @agenttool/collab 0.4.0 never emits (its tools or checks are
	// extensions); every other code is shared with it and identical.
	Extension bool
}

// Areas of the registry, in the order the documentation presents them.
const (
	AreaInput     = "Input"
	AreaSession   = "Sessions, workspaces and credentials"
	AreaCursor    = "Cursors and the journal"
	AreaPresence  = "Presence"
	AreaTask      = "Tasks and leases"
	AreaReview    = "Completion, review and Git checkpoints"
	AreaHandoff   = "Handoffs"
	AreaReport    = "Reports and decisions"
	AreaDatabase  = "Database and migration"
	AreaSearch    = "Search"
	AreaHostSetup = "Host setup"
	AreaInternal  = "Internal"
)

// Registry returns every refusal code collab can emit, grouped by area in
// documentation order. Each code appears exactly once.
func Registry() []Entry {
	var out []Entry
	for _, group := range [][]Entry{input(), fields(), sessions(), cursors(), presence(), tasks(), reviews(), handoffs(), reports(), database(), searching(), hostSetup(), internal()} {
		out = append(out, group...)
	}
	return out
}

// Lookup returns the registry entry of code and whether it is registered.
func Lookup(code string) (Entry, bool) {
	for _, e := range Registry() {
		if string(e.Code) == code {
			return e, true
		}
	}
	return Entry{}, false
}

func input() []Entry {
	in := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaInput, When: when, Do: do} }
	return []Entry{
		in(InvalidArtifactKind, "An artifact's kind is not file, commit, test, data, url or other.", "Use one of those kinds; `other` fits anything else."),
		in(InvalidCompletionPolicy, "A task's completion_policy is not reported or accepted.", "Send `reported` or `accepted`, or leave it out."),
		in(InvalidDeclaredCapabilities, "A presence join declares more than 32 capabilities.", "Declare at most 32."),
		in(InvalidDeclaredCapability, "A declared capability is not a short lower-case symbolic name.", "Use names such as `go` or `review:security`, not free text."),
		in(InvalidDependencies, "A task lists more than 128 dependencies.", "Split the work, or depend on fewer tasks."),
		in(InvalidDependency, "A dependency is not a valid task id, or a task names itself.", "Give the ids of other tasks."),
		in(InvalidEventLimit, "collab_next's event_limit is outside 1 to 50.", "Ask for 1 to 50 events per page (default 10)."),
		in(InvalidEvidenceRef, "An evidence reference lacks a known prefix or an id, or is not text.", "Write references as `artifact:ID`, `event:SEQ`, `report:ID` or `checkpoint:ID`."),
		in(InvalidEvidenceRefs, "More than 128 evidence references are attached.", "Attach at most 128; cite a report that lists the rest."),
		in(InvalidExpectedVersion, "expected_version is below 1.", "Send the version you last read from the task, offer or presence hint."),
		in(InvalidGitObjectID, "expected_base_sha is not 40 to 64 hexadecimal digits.", "Send a full commit id (`git rev-parse HEAD`)."),
		in(InvalidHandoffResponse, "A handoff response is neither accept nor decline.", "Send `accept` or `decline`."),
		in(InvalidIdempotencyKey, "An idempotency key is empty, too long or uses characters other than letters, digits, `.`, `_`, `:` and `-`.", "Use a short token such as a UUID; reuse it only to retry the same call."),
		in(InvalidLimit, "A page limit is outside the range the tool accepts.", "Use the range the tool's schema states (1 to 500 for journals and reports, 1 to 50 for search)."),
		in(InvalidPathScope, "A path scope is empty, absolute, leaves the repository, covers the whole repository, or holds a backslash or NUL.", "Name a directory or file inside the repository with `/` separators, such as `src/parser`."),
		in(InvalidPathScopes, "A task declares more than 128 path scopes, or their combined length exceeds the limit.", "Declare fewer, broader scopes."),
		in(InvalidPresence, "collab_session_list's presence filter is not live, stale or left.", "Send one of those, or leave it out."),
		in(InvalidPresenceTTL, "A presence ttl_seconds is outside 30 to 3600.", "Use 30 to 3600 seconds, or leave it out for the default."),
		in(InvalidRecoveryAction, "collab_task_recover's action is not takeover, release or block.", "Send one of those (takeover is the default)."),
		in(InvalidReportConfidence, "A confidence is not high, medium, low or unknown.", "Send one of those."),
		in(InvalidReportKind, "A report's kind is not observation, inference, proposal or decision.", "Send one of those."),
		in(InvalidReviewOutcome, "A review outcome is not accept or request_changes.", "Send one of those."),
		in(InvalidRuntimeKind, "runtime_kind is empty, too long or not a lower-case symbolic name.", "Send a name such as `claude-code` or `codex`."),
		in(InvalidSessionListLimit, "collab_session_list's limit is outside 1 to 500.", "Ask for 1 to 500 hints."),
		in(InvalidSHA256, "An artifact's sha256 is not 64 hexadecimal digits.", "Send the full hex digest, or leave it out."),
		in(InvalidTTL, "A lease or handoff ttl_seconds is outside 30 to 3600.", "Use 30 to 3600 seconds, or leave it out for the default."),
		in(InvalidWorkMode, "A task's work_mode is not coordination, read_only or edit.", "Send one of those, or leave it out for the mode's default."),
	}
}

// fields are the invalid_<field> codes: a text or id field that is empty
// or only white space, longer than its limit (in UTF-16 code units), holds
// a NUL, is not valid Unicode, or (for ids) uses characters outside
// letters, digits, `.`, `_`, `:` and `-`.
func fields() []Entry {
	limitOf := func(f field.Field) string { return strconv.FormatInt(f.Spec().Max, 10) + " characters" }
	textWith := func(c Code, f field.Field, limit string) Entry {
		return Entry{Code: c, Area: AreaInput,
			When: "`" + f.Spec().Name + "` is empty, longer than " + limit + ", holds a NUL or is not valid Unicode text.",
			Do:   "Send non-empty, well-formed text within the limit; the message names the problem."}
	}
	text := func(c Code, f field.Field) Entry { return textWith(c, f, limitOf(f)) }
	id := func(c Code, f field.Field) Entry {
		return Entry{Code: c, Area: AreaInput,
			When: "`" + f.Spec().Name + "` is empty, longer than " + strconv.Itoa(field.MaxID) + " characters, or uses characters other than letters, digits, `.`, `_`, `:` and `-` (or does not start with a letter or digit).",
			Do:   "Send the id exactly as collab returned it."}
	}
	return []Entry{
		textWith(InvalidActor, field.Actor, limitOf(field.Actor)+" (also `actor_label`)"),
		text(InvalidAuthorityBasis, field.AuthorityBasis),
		text(InvalidAuthorityScope, field.AuthorityScope),
		text(InvalidBlocker, field.Blocker),
		text(InvalidBody, field.Body),
		id(InvalidClientInstanceID, field.ClientInstanceID),
		text(InvalidConfidenceBasis, field.ConfidenceBasis),
		text(InvalidDecision, field.Decision),
		text(InvalidDescription, field.Description),
		id(InvalidHandoffID, field.HandoffID),
		text(InvalidLabel, field.Label),
		id(InvalidLeaseID, field.LeaseID),
		text(InvalidLimits, field.Limits),
		text(InvalidMediaType, field.MediaType),
		text(InvalidMessage, field.Message),
		text(InvalidModelLabel, field.ModelLabel),
		text(InvalidName, field.WorkspaceName),
		text(InvalidNote, field.UnblockNote),
		id(InvalidParentSessionID, field.ParentSessionID),
		text(InvalidProviderLabel, field.ProviderLabel),
		text(InvalidRationale, field.Rationale),
		text(InvalidReason, field.ResetReason),
		text(InvalidRecoveryNote, field.RecoveryNote),
		text(InvalidRole, field.Role),
		id(InvalidSessionID, field.SessionID),
		textWith(InvalidSummary, field.Summary, limitOf(field.ReleaseSummary)+" (release) or "+strconv.FormatInt(field.Summary.Spec().Max, 10)+" (complete, review, handoff)"),
		id(InvalidTargetReportID, field.TargetReportID),
		id(InvalidTaskID, field.TaskID),
		text(InvalidTitle, field.Title),
		{Code: InvalidToActor, Area: AreaInput, When: "A legacy-mode handoff names no `to_actor`, or an invalid one.", Do: "Name the actor label the offer is for."},
		{Code: InvalidToSessionID, Area: AreaInput, When: "A session handoff names no `to_session_id`, or an invalid one.", Do: "Name the session the offer is for (see collab_next or collab_workspace_status)."},
		text(InvalidTopic, field.Topic),
		text(InvalidURI, field.URI),
		id(InvalidWorkspaceID, field.WorkspaceID),
	}
}

func sessions() []Entry {
	s := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaSession, When: when, Do: do} }
	return []Entry{
		s(ActorRequired, "A call in legacy mode (no bound session) does not name an actor.", "Pass `actor`, or call collab_session_start so the session supplies it."),
		s(GitIdentityUnavailable, "Git recognises the directory as a repository but cannot report its identity.", "Check that Git works in that directory (`git rev-parse --git-dir --git-common-dir` must succeed), then retry."),
		s(IdempotencyConflict, "An idempotency key that already answered one change is reused for a different change.", "Use a new key for a new change; reuse a key only to retry the identical call."),
		s(ParentSessionMismatch, "parent_session_id names a session of another workspace.", "Name a parent session of the same workspace, or leave it out."),
		s(RepositoryPartitioned, "The repository holds several preserved v0.1 journals, so a credential-bound session cannot choose one.", "Reconcile the journals first; legacy mode still works in each."),
		s(SessionAlreadyBound, "This process already has a bound session, and a second session start, resume or workspace open was asked of it.", "Keep using the bound session, or start another process for another session."),
		s(SessionAuthFailed, "The session credential does not authenticate: the session ended, or a newer process resumed it (a newer generation).", "Start a new session with collab_session_start; a resumed process elsewhere now owns the old one."),
		s(SessionDirectoryNotPrivate, "The credential directory is a symlink, not owned by this user, or open to group or others.", "Make it a real directory of yours with mode 0700."),
		s(SessionFileExists, "A credential file already exists where a new one would be written.", "End or remove the session that owns it first; collab never overwrites one."),
		s(SessionFileInvalid, "A credential file is malformed or in an unknown format.", "Start a new session; remove the broken file by hand."),
		s(SessionFileNotPrivate, "A credential file is readable or writable by group or others.", "Restrict it to mode 0600 before resuming."),
		s(SessionFilePathRequired, "An in-memory database has no directory for credential files and none was named.", "Name an explicit credential file path, or use a database on disk."),
		s(SessionFileReadFailed, "A credential file could not be read.", "Check that it exists and is readable by you."),
		s(SessionFileRemoveFailed, "The session ended, but its revoked credential file could not be deleted.", "Delete the file by hand; the credential no longer works."),
		s(SessionFileUnsafe, "A credential path is a symlink, a special file or not owned by this user.", "Remove what is at that path, or fix its owner; collab left it untouched."),
		s(SessionFileWriteFailed, "A credential file could not be written atomically.", "Check free space and the directory's permissions, then start the session again."),
		s(SessionHasActiveLeases, "collab_session_end is called while the session still holds live task leases.", "Release, complete or hand off the tasks listed in `task_ids`, then end the session."),
		s(SessionNotBound, "A call needs a bound session (or legacy mode) and this process has neither; or collab_session_end finds nothing to end.", "Call collab_session_start first; only a tool whose schema lists `actor` also works without a session (legacy mode)."),
		s(SessionNotFound, "A session or presence hint id names nothing in this database.", "Use an id that collab returned for this workspace."),
		s(SessionRequiredForV2TaskOptions, "work_mode, completion_policy or expected_base_sha is given without a bound session.", "Call collab_session_start first, or leave those options out in legacy mode."),
		s(SessionWorkspaceMismatch, "The bound session belongs to another workspace than the one named.", "Use the bound session's workspace_id, or start another process for the other workspace."),
		s(WorkspaceIdentityCollision, "Another repository already owns the workspace id this directory resolves to.", "Pass an explicit `repository_key` to keep the two apart."),
		s(WorkspaceNotDirectory, "root_path is not an existing directory.", "Pass the directory of the repository worktree."),
		s(WorkspaceNotFound, "workspace_id names no workspace in this database.", "Open the workspace (collab_workspace_open) or start a session on the repository first."),
		s(WorktreeIdentityChanged, "A registered path now resolves to a different repository or worktree.", "Open or start again from the directory as it is now; collab will not silently follow the move."),
		s(WorktreeNotFound, "The session's worktree is not registered, or a worktree id names nothing.", "Start the session again from the repository directory."),
		s(WorktreeUnavailable, "The registered worktree could not be inspected (for example its directory is gone).", "Make sure the directory still exists and Git works there, then retry."),
	}
}

func cursors() []Entry {
	c := func(code Code, when, do string) Entry { return Entry{Code: code, Area: AreaCursor, When: when, Do: do} }
	return []Entry{
		c(AmbiguousCursor, "Both after_anchor and after_sequence are given.", "Give one of them."),
		c(CursorAhead, "An anchor's sequence is beyond the journal head.", "Use an anchor collab returned; read the head from collab_next or collab_workspace_status."),
		c(CursorEpochMismatch, "An anchor belongs to another journal epoch than the session cursor.", "Use an anchor from this journal."),
		c(CursorForkDetected, "The journal holds a different event at an anchor's sequence than the anchor's hash, or a genesis anchor carries the wrong hash.", "Stop and verify the journal (collab_journal_verify); then reset the cursor to an anchor read from it."),
		c(CursorMismatch, "An anchor or cursor does not resolve to an event of this journal.", "Use an anchor returned by this workspace's collab_next or collab_events_since."),
		c(CursorRecoveryRequired, "The session must reset its cursor to an exact journal anchor before it may write again (the host resumed it in recovery mode, or its cursor no longer resolves).", "Call collab_cursor_reset with an anchor from collab_events_since and the expected cursor version."),
		c(CursorRegression, "collab_cursor_ack would move the cursor backwards.", "Acknowledge only newer anchors; use collab_cursor_reset to go back on purpose."),
		c(CursorResetReceiptStale, "A reset is retried with an idempotency key that answered an earlier reset, and the session is in recovery again.", "Reset again with a new idempotency key."),
		c(CursorResetRequired, "The persisted session cursor (or the caller's known cursor) no longer matches the journal.", "Reset the cursor explicitly with collab_cursor_reset, with a reason."),
		c(CursorVersionConflict, "The session cursor moved since the caller read its version.", "Poll again (collab_next) and retry with the current version."),
		c(InvalidCursor, "A cursor or after-sequence is negative or beyond the journal head, or a search cursor is not one this search returned.", "Use a sequence between 0 and the head, or repeat the search without the cursor."),
	}
}

func presence() []Entry {
	p := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaPresence, When: when, Do: do} }
	return []Entry{
		p(SessionInstanceConflict, "A client_instance_id joins again with different self-declared details.", "Use a new client_instance_id for a new incarnation."),
		p(SessionInstanceEnded, "A client_instance_id whose presence hint already left joins again.", "Join with a new client_instance_id."),
		p(SessionLeft, "A presence hint that left is refreshed.", "Join again with a new client_instance_id."),
		p(SessionVersionConflict, "The presence hint changed since the caller read its version.", "Read it again (collab_session_list) and retry with the current version."),
	}
}

func tasks() []Entry {
	t := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaTask, When: when, Do: do} }
	return []Entry{
		t(DependenciesIncomplete, "A claim is made while some dependencies are not complete (or, for reviewed tasks, not accepted).", "Finish the tasks listed in `dependencies` first, or claim another task."),
		t(EditScopeRequired, "An edit-mode task has no path scope, at creation or at claim.", "Add `path_scopes`, or choose another work_mode."),
		t(ExpectedBaseMismatch, "The worktree HEAD is not the commit the task names as its required base.", "Check out the required base (`expected_base_sha`) and claim again."),
		t(LeaseExpired, "The lease the call relies on has expired.", "Claim the task again (or recover it, for a session lease) before continuing."),
		t(LeaseNotActive, "The task has no active lease to act on.", "Claim the task first."),
		t(LeaseNotHolder, "The caller does not hold the task's current lease.", "Only the holder may do this; ask the holder (see `assignee`) or wait for the lease to end."),
		t(PathScopeConflict, "The task's path scopes overlap a live claim anywhere in the repository.", "Wait for the conflicting task (see `conflicting_task_id`) or narrow the scopes."),
		t(RecoveryBlockerRequired, "collab_task_recover with action block gives no blocker.", "Say what blocks the task in `blocker`."),
		t(RecoveryNotRequired, "collab_task_recover is called on a task whose lease is not an expired session lease.", "Claim the task normally."),
		t(RecoveryRequired, "A claim is made on a task whose session lease expired.", "Call collab_task_recover with a recovery note, then continue."),
		t(TaskBlocked, "A blocked task is claimed.", "Unblock it first (collab_task_unblock)."),
		t(TaskClaimed, "A task is claimed while another claim on it is live.", "Pick another task, or ask the holder for a handoff."),
		t(TaskCompleted, "A completed task is claimed.", "Create a follow-up task instead."),
		t(TaskExists, "collab_task_create names a task_id that already exists.", "Choose another task_id, or leave it out to get a generated one."),
		t(TaskNotBlocked, "collab_task_unblock is called on a task that is not blocked.", "Nothing to do; read the task to see its status."),
		t(TaskNotFound, "task_id names no task in this workspace.", "List tasks (collab_task_list) and use one of their ids."),
		t(VersionConflict, "The task changed since the caller read its version.", "Read the task again and retry with its current version."),
	}
}

func reviews() []Entry {
	r := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaReview, When: when, Do: do} }
	return []Entry{
		r(CheckpointWorkspaceMismatch, "The completion's checkpoint belongs to another workspace.", "Report the completion again from this workspace's worktree."),
		r(CompletionChallenged, "A completion is accepted while a report still challenges it.", "Resolve the challenge (a `resolves` report) first, or request changes."),
		r(CompletionReportObsolete, "The completion report under review was withdrawn, corrected or superseded.", "Request changes so the holder can report the completion afresh."),
		r(GitCheckpointIncomplete, "Acceptance needs a complete server-observed Git checkpoint and the result or the current state could not be fully hashed.", "Make the worktree readable by Git (no unreadable or oversized files in scope) and review again."),
		r(GitCheckpointStale, "The completion's worktree changed after its result checkpoint was captured.", "Request changes, or have the holder report the completion again."),
		r(ReviewStateInvalid, "The task's completion lacks its reporting session or report.", "Request changes so a proper completion can be reported."),
		r(SelfReviewForbidden, "The session that reported a completion tries to review it.", "Ask another session to review it."),
		r(TaskNotPendingReview, "A review is sent for a task with no completion waiting for review.", "Read the task; review only reported completions."),
		r(WorktreeObservationStale, "The worktree or checkpoint changed between preparing and recording a review or checkpoint, or the observation belongs to another session.", "Retry the call; it observes the worktree afresh."),
	}
}

func handoffs() []Entry {
	h := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaHandoff, When: when, Do: do} }
	return []Entry{
		h(HandoffExpired, "The offer, or the lease it came from, has expired.", "Ask the holder for a new offer, or claim the task if it is open."),
		h(HandoffNotFound, "handoff_id names no handoff in this workspace.", "Use an offer id from collab_next."),
		h(HandoffNotRecipient, "Someone other than the addressed actor or session answers an offer.", "Only the named recipient may respond."),
		h(HandoffPending, "A task already has a pending offer and another is made.", "Wait for the answer to `handoff_id`, or let it expire."),
		h(HandoffResolved, "An offer that was already answered is answered again.", "Nothing to do; read the task to see who holds it."),
		h(HandoffSourceChanged, "The lease an offer came from changed hands or ended before it was accepted.", "Ask the current holder for a new offer."),
		h(HandoffTargetUnavailable, "The offer's target is not an active session of the same workspace.", "Offer the task to an active session (see collab_workspace_status)."),
		h(InvalidHandoff, "An offer is addressed to its own sender.", "Address another actor or session."),
	}
}

func reports() []Entry {
	r := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaReport, When: when, Do: do} }
	return []Entry{
		r(DecisionAuthorityRequired, "A decision report in a bound session lacks authority_scope or authority_basis.", "State both: what the decision covers and why you may decide it."),
		r(EvidenceNotFound, "An evidence reference names nothing recorded in this workspace.", "Cite artifacts, events, reports or checkpoints that exist."),
		r(InvalidReportRelation, "A relation is unknown, an `informs` report targets another, or a `resolves` report targets something other than a challenge.", "Use a listed relation with a fitting target."),
		r(ReportAuthorMismatch, "A session corrects, withdraws or supersedes a report it did not write.", "Challenge the report instead."),
		r(ReportNotFound, "target_report_id names no report.", "Use a report id from collab_report_list or collab_next."),
		r(ReportTargetMismatch, "The target report, or the addressed session, belongs to another workspace.", "Relate and address only within one workspace."),
		r(ReportTargetRequired, "A relation that needs an earlier report names none.", "Pass target_report_id."),
		r(ReportTaskMismatch, "A related report's task_id differs from its target's.", "Use the target's task_id (or none, if it has none)."),
		{Code: DeliveryMarkConflict, Area: AreaReport, Extension: true, When: "A report or handoff the session already marked handled (or declined) is marked the other way.", Do: "Nothing to change: a mark is final; post a report if you changed your mind."},
		{Code: DeliveryNotAddressed, Area: AreaReport, Extension: true, When: "A delivery receipt names a report or handoff that is not addressed to the session recording it, or none at all.", Do: "Record receipts only for what was addressed to you (see collab_next)."},
		{Code: InvalidDeliveryChannel, Area: AreaReport, Extension: true, When: "An announcement names a channel other than hook, monitor, channel, wait or tmux.", Do: "Name one of those channels."},
		{Code: InvalidDeliveryMark, Area: AreaReport, Extension: true, When: "A mark is neither handled nor declined, names no subject, or its note is longer than 2000 characters.", Do: "Mark handled or declined, with a note of at most 2000 characters."},
		{Code: IndependenceClaimNotFound, Area: AreaReport, Extension: true, When: "A release names an independence claim this workspace's journal does not hold.", Do: "List the open claims with collab_independence_list and name one of them."},
		{Code: IndependenceNotClaimant, Area: AreaReport, Extension: true, When: "A session other than the claimant tries to release an independence claim early.", Do: "Only the claimant releases early; wait for its finding or for the claim to expire."},
		{Code: InvalidIndependenceSubject, Area: AreaReport, Extension: true, When: "A claim names no subject, more than one, a task or report this workspace does not hold, or a topic label that is not 1 to 64 letters, digits, dots, dashes or underscores.", Do: "Name exactly one of task_id, report_id or topic."},
		{Code: InvalidIndependenceDuration, Area: AreaReport, Extension: true, When: "A claim's duration is not a whole number of seconds from 60 to 604800 (a week).", Do: "Pass ttl_seconds within that range, or leave it out for a day."},
	}
}

func database() []Entry {
	d := func(c Code, when, do string) Entry { return Entry{Code: c, Area: AreaDatabase, When: when, Do: do} }
	return []Entry{
		d(DatabaseApplicationMismatch, "The SQLite file belongs to another application.", "Point AGENTOOL_COLLAB_DB at a collab database, or at a new path."),
		{Code: DatabaseCorrupt, Area: AreaDatabase, Extension: true, When: "SQLite reports the database file damaged (pages fail `PRAGMA quick_check`).", Do: "Restore it from a backup; `agenttool-collab-mcp verify` shows what is damaged."},
		{Code: DatabaseFileReplaced, Area: AreaDatabase, Extension: true, When: "The database file was deleted or replaced while the server was running.", Do: "Restart the server so it opens the file that is there now; writes are refused until then."},
		d(DatabaseFileUnsafe, "The database path is missing, a symlink, a hard link or not owned by this user.", "Point AGENTOOL_COLLAB_DB at a regular file of yours."),
		d(DatabaseForeignKeyFailure, "The database holds rows whose references point nowhere.", "The file was changed outside collab; restore it from a backup."),
		d(DatabaseJournalInvalid, "A workspace journal fails hash-chain verification at open.", "The file was changed outside collab; restore it from a backup."),
		d(DatabaseMigrationReceiptInvalid, "The schema migration ledger does not match the schema version.", "The file was altered outside collab; restore it from a backup."),
		d(DatabasePartialMigration, "The database holds a newer schema's objects without a committed schema version (a migration was interrupted by another tool).", "Restore the file from a backup taken before the interrupted migration."),
		d(DatabasePragmaUnavailable, "SQLite does not report a required PRAGMA.", "Use a SQLite file this build can read; report it if it persists."),
		d(DatabaseSchemaMismatch, "A required table, column or trigger is missing or has an unexpected shape.", "Point AGENTOOL_COLLAB_DB at a complete collab database, or at a new path."),
		d(DatabaseSidecarUnsafe, "The database or a file beside it that SQLite would use is not a private regular file of this user.", "Remove or fix that file (owner, type) before continuing."),
		d(DatabaseVersionTooNew, "The database was written by a newer collab release.", "Upgrade this server."),
		d(DatabaseWriteGuardInvalid, "The write-guard table holds rows at rest.", "A writer left the file inconsistent; restore it from a backup."),
		d(MigrationForeignKeyFailure, "A migration would leave references pointing nowhere.", "Keep the original file; restore it from a backup if it was altered."),
		d(MigrationIdentityCollision, "Two legacy workspaces resolve to one worktree, so migrating would merge separate journals.", "Keep the original file and use a compatible older client, or choose a new database."),
		d(MigrationIdentityMissing, "A legacy workspace has no prepared repository identity during migration.", "Start again; report it if it persists."),
		d(MigrationIntegrityFailure, "SQLite reports the file damaged during migration.", "Restore the file from a backup."),
		d(MigrationJournalChanged, "A migration would change an existing journal head.", "Keep the original file; report it."),
		d(MigrationSessionRowsChanged, "Session rows changed while the preview session table was renamed.", "Start again once no other process writes the file."),
		d(MigrationSourceChanged, "Workspace roots or the database changed while migration or open was being prepared.", "Start again."),
		{Code: WriteOutcomeUnknown, Area: AreaDatabase, Extension: true, When: "On PostgreSQL, the connection to the server was lost while a write was committing (the server crashed or restarted, the network dropped), and collab could not learn from the journal whether the write is in it: nothing the write left there can tell, or the server did not answer within 60 s.", Do: "Repeat the call with the same idempotency_key: a replay returns the first result if the write committed and applies it once if it did not. A call that takes no key (collab_cursor_ack) can be repeated as it is; it is refused or answered from what the journal now holds."},
	}
}

func searching() []Entry {
	s := func(c Code, when, do string) Entry {
		return Entry{Code: c, Area: AreaSearch, When: when, Do: do, Extension: true}
	}
	return []Entry{
		s(InvalidBound, "collab_search's since or until is not a sequence number, an RFC 3339 time or a YYYY-MM-DD date.", "Send one of those forms."),
		s(InvalidKind, "collab_search's kinds names an unknown hit kind.", "Use the kinds the tool's schema lists."),
		s(InvalidOrder, "collab_search's order is not relevance or recent.", "Send `relevance` or `recent`."),
		s(InvalidQuery, "collab_search's query holds no word to search for.", "Send at least one word."),
		s(QueryTooComplex, "A search query has too many characters, words or prefix terms, or too wide a NEAR group, or its matching ran past its deadline (under a second) and was stopped.", "Search for fewer words, write prefix terms out in full, or narrow the NEAR group; the refusal names the limit."),
		s(SearchIndexUnavailable, "The search index beside the database could not be opened.", "Make its directory writable, or rebuild it with `agenttool-collab-mcp search --rebuild`."),
	}
}

func hostSetup() []Entry {
	h := func(c Code, when, do string) Entry {
		return Entry{Code: c, Area: AreaHostSetup, When: when, Do: do, Extension: true}
	}
	return []Entry{
		h(HermesConfigInvalid, "Hermes's config.yaml is not valid YAML, so `host install hermes` left it untouched.", "Fix the file (Hermes cannot read it either) and run again."),
		h(HermesConfigUnsupported, "config.yaml writes mcp_servers in a one-line flow style the editor will not rewrite.", "Rewrite it as a block mapping, or add the entry by hand."),
		h(HermesProfileInvalid, "A Hermes profile name uses characters other than letters, digits, `.`, `_` and `-`.", "Name an existing profile."),
		h(HermesProfileNotFound, "No Hermes profile folder has that name.", "Create the profile with Hermes first."),
	}
}

func internal() []Entry {
	return []Entry{
		{Code: InternalError, Area: AreaInternal, When: "Something failed that is not a refusal: an I/O, SQLite or PostgreSQL error, or a legacy write to a session-owned task stopped by the database's guard (`agenttool_collab_v2_write_requires_v2_client`). On PostgreSQL the message says when the connection to the server was lost before a commit (nothing was written) or the role lacks a privilege; a commit whose outcome is unknown is `write_outcome_unknown`. The message is scrubbed of secrets.", Do: "Retry once, with the same idempotency_key (a replay returns the first result if it was written); if it persists, run `agenttool-collab-mcp doctor` and report the message. A missing PostgreSQL privilege needs a grant (docs/postgres.md)."},
	}
}
