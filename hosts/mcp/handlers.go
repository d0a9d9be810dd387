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
	}
}
