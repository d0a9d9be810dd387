package mcp

// handlerTable maps each implemented tool to its handler.
func handlerTable() map[string]Handler {
	return map[string]Handler{
		"collab_workspace_open":    handleWorkspaceOpen,
		"collab_workspace_status":  handleWorkspaceStatus,
		"collab_events_since":      handleEventsSince,
		"collab_journal_verify":    handleJournalVerify,
		"collab_anchor_status":     handleAnchorStatus,
		"collab_session_start":     handleSessionStart,
		"collab_session_end":       handleSessionEnd,
		"collab_cursor_ack":        handleCursorAck,
		"collab_cursor_reset":      handleCursorReset,
		"collab_next":              handleNext,
		"collab_session_join":      handleSessionJoin,
		"collab_session_list":      handleSessionList,
		"collab_session_heartbeat": handleSessionHeartbeat,
		"collab_session_leave":     handleSessionLeave,
		"collab_task_create":       handleTaskCreate,
		"collab_task_list":         handleTaskList,
		"collab_task_get":          handleTaskGet,
		"collab_task_claim":        handleTaskClaim,
		"collab_task_renew":        handleTaskRenew,
		"collab_task_progress":     handleTaskProgress,
		"collab_task_release":      handleTaskRelease,
		"collab_task_block":        handleTaskBlock,
		"collab_task_unblock":      handleTaskUnblock,
		"collab_artifact_attach":   handleArtifactAttach,
		"collab_task_complete":     handleTaskComplete,
		"collab_task_review":       handleTaskReview,
		"collab_task_recover":      handleTaskRecover,
		"collab_handoff_offer":     handleHandoffOffer,
		"collab_handoff_respond":   handleHandoffRespond,
		"collab_report_append":     handleReportAppend,
		"collab_report_list":       handleReportList,
		"collab_decision_record":   handleDecisionRecord,
	}
}
