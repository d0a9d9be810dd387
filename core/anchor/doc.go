// Package anchor reports how a workspace's journal head relates to the
// local sidecar ledger that the @agenttool/collab-zerone bridge writes when
// it witnesses head hashes on the zerone chain (the collab_anchor_status
// tool).
//
// The check is read-only and local: it never contacts a chain, never writes
// the ledger, and never fails because of the ledger — a missing, special,
// oversized or malformed ledger simply reports "unanchored". The ledger path
// is chosen by the host (see place.AnchorLedger) and never appears in a
// result.
package anchor
