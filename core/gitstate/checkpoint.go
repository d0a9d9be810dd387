package gitstate

import "time"

// Fixed values of the full checkpoint form.
const (
	Algorithm = "git-state/v1"
	Source    = "server_observed"
)

// capturedAtLayout is ECMAScript Date.prototype.toISOString in UTC.
const capturedAtLayout = "2006-01-02T15:04:05.000Z"

// Checkpoint is a server-observed local Git state
// (docs/contract.md#checkpoint-capture). Pointer fields are nil where the
// contract has JSON null. Digests is nil for the reduced form used for
// non-Git roots and for repositories without a HEAD commit; that form has no
// algorithm, index_sha256, state_sha256 or source keys at all.
type Checkpoint struct {
	WorktreeID string
	HeadSHA    *string
	Branch     *string
	Dirty      *bool
	Digests    *StateDigests
	CapturedAt string // "2006-01-02T15:04:05.000Z", UTC, real wall clock
}

// StateDigests are the digests of the full "git-state/v1" form; each is
// lower-case hex SHA-256, or nil when Git or the untracked bounds did not
// allow computing it.
type StateDigests struct {
	IndexSHA256 *string
	StateSHA256 *string
}

// reducedCheckpoint is the form without Git state digests.
func reducedCheckpoint(worktreeID string, now time.Time) Checkpoint {
	return Checkpoint{WorktreeID: worktreeID, CapturedAt: formatCapturedAt(now)}
}

func formatCapturedAt(t time.Time) string {
	return t.UTC().Format(capturedAtLayout)
}

// Map returns the checkpoint as a JSON object value with exactly the
// contract's keys: worktree_id, head_sha, branch, dirty and captured_at, plus
// algorithm, index_sha256, state_sha256 and source in the full form. Absent
// values are untyped nil (JSON null).
func (c Checkpoint) Map() map[string]any {
	m := map[string]any{
		"worktree_id": c.WorktreeID,
		"head_sha":    nullable(c.HeadSHA),
		"branch":      nullable(c.Branch),
		"dirty":       nullable(c.Dirty),
		"captured_at": c.CapturedAt,
	}
	if c.Digests != nil {
		m["algorithm"] = Algorithm
		m["index_sha256"] = nullable(c.Digests.IndexSHA256)
		m["state_sha256"] = nullable(c.Digests.StateSHA256)
		m["source"] = Source
	}
	return m
}

// nullable dereferences p, mapping nil to an untyped nil.
func nullable[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
