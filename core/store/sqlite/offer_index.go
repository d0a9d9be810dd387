package sqlite

// PendingOffersIndex names the index a file gains once it holds many
// handoff offers: the offers still pending. Every collab_next sweeps a
// workspace's pending offers, and the reference's only handoffs index
// leads with to_actor, so without it the sweep visits every offer the
// workspace has ever made (11,410 rows, 41 % of a collab_next's CPU, in a
// generated journal of a million events).
const PendingOffersIndex = "collab_handoffs_pending_idx"

// pendingOffers is PendingOffersIndex, gained at 32 offers. It holds only
// the pending ones, so it costs a write only while an offer is pending,
// and the threshold is there only to leave small files as the reference
// made them.
var pendingOffers = longFileIndex{
	name: PendingOffersIndex,
	ddl: `CREATE INDEX IF NOT EXISTS collab_handoffs_pending_idx
        ON handoffs(workspace_id, task_id) WHERE status = 'pending'`,
	rows:  "SELECT 1 FROM handoffs",
	after: 32,
}
