package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
)

// evidenceLookup returns, for each evidence kind with a row of its own,
// the query that finds that row in a workspace.
func evidenceLookup(kind string) (string, bool) {
	switch kind {
	case "artifact":
		return "SELECT 1 FROM artifacts WHERE workspace_id = ? AND id = ?", true
	case "event":
		return "SELECT 1 FROM events WHERE workspace_id = ? AND id = ?", true
	case "report":
		return "SELECT 1 FROM reports WHERE workspace_id = ? AND id = ?", true
	}
	return "", false
}

// resolveEvidence checks, in the order given, that every reference is
// well formed (<kind>:<id> with kind artifact, event, report or checkpoint)
// and names something recorded in the workspace. The first failure is
// returned: invalid_evidence_ref for the syntax, evidence_not_found
// (with the reference) for a dangling one.
func resolveEvidence(ctx context.Context, q querier, workspaceID string, refs []string) error {
	for _, ref := range refs {
		kind, id, err := parseEvidenceRef(ref)
		if err != nil {
			return err
		}
		found, err := evidenceExists(ctx, q, workspaceID, kind, id)
		if err != nil {
			return err
		}
		if !found {
			return collaberr.New(collaberr.EvidenceNotFound, "No such evidence is recorded in this workspace").
				With("reference", ref)
		}
	}
	return nil
}

// parseEvidenceRef splits a reference at its first colon.
func parseEvidenceRef(ref string) (kind, id string, err error) {
	i := strings.IndexByte(ref, ':')
	if i <= 0 {
		return "", "", collaberr.New(collaberr.InvalidEvidenceRef,
			"An evidence reference starts with artifact:, event:, report: or checkpoint:")
	}
	kind, id = ref[:i], ref[i+1:]
	if id == "" {
		return "", "", collaberr.New(collaberr.InvalidEvidenceRef, "The evidence reference names no ID after its prefix")
	}
	if _, ok := evidenceLookup(kind); !ok && kind != "checkpoint" {
		return "", "", collaberr.New(collaberr.InvalidEvidenceRef,
			"This evidence kind is not supported; use artifact:, event:, report: or checkpoint:")
	}
	return kind, id, nil
}

func evidenceExists(ctx context.Context, q querier, workspaceID, kind, id string) (bool, error) {
	if kind == "checkpoint" {
		return checkpointRecorded(ctx, q, workspaceID, id)
	}
	query, _ := evidenceLookup(kind)
	return rowExists(ctx, q, query, workspaceID, id)
}

// rowExists reports whether query returns a row.
func rowExists(ctx context.Context, q querier, query string, args ...any) (bool, error) {
	var one int
	err := q.QueryRowContext(ctx, query, args...).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up row: %w", err)
	}
	return true, nil
}

// checkpointRecorded reports whether some task of the workspace has a base
// or result checkpoint whose digest (sha256 of its canonical JSON) is digest.
func checkpointRecorded(ctx context.Context, q querier, workspaceID, digest string) (bool, error) {
	rows, err := q.QueryContext(ctx, `SELECT base_checkpoint_json, result_checkpoint_json FROM tasks
WHERE workspace_id = ? AND (base_checkpoint_json IS NOT NULL OR result_checkpoint_json IS NOT NULL)`, workspaceID)
	if err != nil {
		return false, fmt.Errorf("read task checkpoints: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var base, result sql.NullString
		if err := rows.Scan(&base, &result); err != nil {
			return false, fmt.Errorf("read task checkpoint: %w", err)
		}
		for _, cp := range []sql.NullString{base, result} {
			if !cp.Valid {
				continue
			}
			d, err := storedCheckpointDigest(cp.String)
			if err != nil {
				return false, err
			}
			if d == digest {
				return true, nil
			}
		}
	}
	return false, rows.Err()
}

// storedCheckpointDigest is the evidence digest of a stored checkpoint.
// Checkpoints are stored canonically, so this is the sha256 of the stored
// text; re-canonicalising keeps it right for text written any other way.
func storedCheckpointDigest(text string) (string, error) {
	c, err := canon.Canonicalize([]byte(text))
	if err != nil {
		return "", fmt.Errorf("canonicalise stored checkpoint: %w", err)
	}
	return sha256Hex(string(c)), nil
}
