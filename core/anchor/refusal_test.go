package anchor_test

import (
	"testing"

	"github.com/agenttool/collab/core/anchor"
	"github.com/agenttool/collab/core/collaberr"
)

func TestWorkspaceNotFoundCarriesOnlyTheWorkspaceID(t *testing.T) {
	err := anchor.WorkspaceNotFound("ws_000000000000000000000000")
	if !collaberr.HasCode(err, "workspace_not_found") {
		t.Fatalf("code = %q", err.Code)
	}
	if len(err.Details) != 1 || err.Details[0] != (collaberr.Field{Key: "workspace_id", Value: "ws_000000000000000000000000"}) {
		t.Fatalf("details = %v", err.Details)
	}
}
