package anchor

import "github.com/agenttool/collab/core/collaberr"

// WorkspaceNotFound is the refusal collab_anchor_status returns for an
// unknown workspace, before any ledger is read. It carries the workspace id
// as its only detail; its wording is distinct from the store's own
// workspace_not_found message, as in the reference.
func WorkspaceNotFound(workspaceID string) *collaberr.Error {
	return collaberr.New(collaberr.WorkspaceNotFound,
		"No workspace with this id exists in the local journal; open or start a session on the repository first").
		With("workspace_id", workspaceID)
}
