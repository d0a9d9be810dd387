package store

import (
	"context"

	"github.com/agenttool/collab/core/answer"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/normalize"
)

// ArtifactInput is a reference to attach to a held task.
type ArtifactInput struct {
	Kind      string
	URI       string
	SHA256    *string
	MediaType *string
	Label     *string
}

type artifactFields struct {
	kind, uri             string
	sha, mediaType, label *string
}

func normalizeArtifact(in ArtifactInput) (artifactFields, error) {
	f := artifactFields{kind: in.Kind}
	switch in.Kind {
	case "file", "commit", "test", "data", "url", "other":
	default:
		return f, collaberr.New(collaberr.InvalidArtifactKind, "kind must be file, commit, test, data, url or other")
	}
	var err error
	if f.uri, err = normalize.Text(in.URI, field.URI); err != nil {
		return f, err
	}
	if in.SHA256 != nil {
		sha, err := normalize.SHA256(*in.SHA256)
		if err != nil {
			return f, err
		}
		f.sha = &sha
	}
	if f.mediaType, err = normalize.Optional(in.MediaType, field.MediaType); err != nil {
		return f, err
	}
	f.label, err = normalize.Optional(in.Label, field.Label)
	return f, err
}

// AttachArtifact records a reference (never the bytes) on a task whose
// lease the caller holds.
func (s *Store) AttachArtifact(ctx context.Context, who Actor, in LeaseInput, a ArtifactInput) (*answer.Of[AttachAnswer], error) {
	lc, err := newLeaseCall(who, in)
	if err != nil {
		return nil, err
	}
	f, err := normalizeArtifact(a)
	if err != nil {
		return nil, err
	}
	extra := map[string]any{"kind": f.kind, "uri": f.uri, "sha256": nullable(f.sha), "media_type": nullable(f.mediaType), "label": nullable(f.label)}
	return mutateLease(ctx, s, lc, leaseChange[AttachAnswer]{
		operation: "artifact.attach", extra: extra,
		apply: func(ctx context.Context, tx Tx, t Task, h holder, now string) (*AttachAnswer, error) {
			art := Artifact{ID: "artifact_" + newUUID(), TaskID: t.ID, Kind: f.kind, URI: f.uri, SHA256: f.sha,
				MediaType: f.mediaType, Label: f.label, AttachedBy: h.actor, AttachedAt: now, AttachedBySessionID: h.sessionID}
			if err := tx.InsertArtifact(ctx, t.WorkspaceID, art); err != nil {
				return nil, err
			}
			if err := tx.UpdateTask(ctx, t, touched(t, now)); err != nil {
				return nil, err
			}
			if _, err := s.appendEvent(ctx, tx, t.WorkspaceID, newEvent{Type: journal.KindArtifactAttached, EntityID: t.ID, Actor: h.actor,
				SessionID: h.sessionID, Payload: map[string]any{"artifact": artifactMap(art), "version": t.Version + 1}}); err != nil {
				return nil, err
			}
			task, err := loadTask(ctx, tx, t.WorkspaceID, t.ID, now)
			return &AttachAnswer{Task: task, Artifact: art}, err
		},
	})
}

func artifactMap(a Artifact) map[string]any {
	return map[string]any{
		"id": a.ID, "task_id": a.TaskID, "kind": a.Kind, "uri": a.URI, "sha256": nullable(a.SHA256),
		"media_type": nullable(a.MediaType), "label": nullable(a.Label), "attached_by": a.AttachedBy,
		"attached_at": a.AttachedAt, "attached_by_session_id": nullable(a.AttachedBySessionID),
	}
}
