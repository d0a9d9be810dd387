package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/agenttool/collab/core/canon"
	"github.com/agenttool/collab/core/collaberr"
)

// isEvidenceKind reports whether kind is one an evidence reference may
// name: artifact, event and report name a record of their own, checkpoint
// the digest of a checkpoint stored on a task.
func isEvidenceKind(kind string) bool {
	switch kind {
	case "artifact", "event", "report", "checkpoint":
		return true
	}
	return false
}

// resolveEvidence checks, in the order given, that every reference is
// well formed (<kind>:<id> with kind artifact, event, report or checkpoint)
// and names something recorded in the workspace. The first failure is
// returned: invalid_evidence_ref for the syntax, evidence_not_found
// (with the reference) for a dangling one.
func resolveEvidence(ctx context.Context, q Evidence, workspaceID string, refs []string) error {
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
	if !isEvidenceKind(kind) {
		return "", "", collaberr.New(collaberr.InvalidEvidenceRef,
			"This evidence kind is not supported; use artifact:, event:, report: or checkpoint:")
	}
	return kind, id, nil
}

// evidenceExists looks up what one parsed reference names.
func evidenceExists(ctx context.Context, q Evidence, workspaceID, kind, id string) (bool, error) {
	switch kind {
	case "artifact":
		return q.Recorded(ctx, workspaceID, RecordArtifact, id)
	case "event":
		return q.Recorded(ctx, workspaceID, RecordEvent, id)
	case "report":
		return q.Recorded(ctx, workspaceID, RecordReport, id)
	case "checkpoint":
		return checkpointRecorded(ctx, q, workspaceID, id)
	}
	return false, fmt.Errorf("evidence kind %q has no lookup", kind)
}

// checkpointRecorded reports whether some task of the workspace has a base
// or result checkpoint whose digest (sha256 of its canonical JSON) is
// digest. Checkpoints are digested in the order the engine returns them,
// and the first match ends the search.
func checkpointRecorded(ctx context.Context, q Evidence, workspaceID, digest string) (bool, error) {
	stored, err := q.RecordedCheckpoints(ctx, workspaceID)
	if err != nil {
		return false, err
	}
	for _, cp := range stored {
		d, err := storedCheckpointDigest(string(cp))
		if err != nil {
			return false, err
		}
		if d == digest {
			return true, nil
		}
	}
	return false, nil
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
