package anchor

import "fmt"

// ScopeNote is the fixed caveat carried by every Status.
const ScopeNote = "This status is read from the local sidecar ledger only and never proves what the remote chain holds; " +
	"confirm on chain with @agenttool/collab-zerone `verify --workspace <id> --check-chain`."

// Human explanations for each row of the decision table. They are prose for
// people and models, not a contract: clients must branch on Status.Status.
const (
	reasonNoLedger      = "no anchor ledger could be read at the configured path (it is missing, not a regular file, larger than 4 MiB, or unreadable)"
	reasonMalformed     = "the anchor ledger exists but is not valid JSON, has another protocol, or has no anchors array; treated as unanchored"
	reasonNoEntries     = "the ledger records no anchors for this workspace in its current epoch"
	reasonVerifyFailed  = "the journal fails full recomputation from genesis, so no anchored history can be vouched for"
	reasonAhead         = "the confirmed anchor lies beyond the local journal head (the journal was rewound, or this is another database)"
	reasonAnchored      = "the journal recomputes from genesis and its head equals the latest confirmed anchor"
	reasonHeadDiffers   = "the journal head hash differs from the confirmed anchor at the same sequence"
	reasonNoEvent       = "the journal has no verifiable event at the anchored sequence"
	reasonHashRewritten = "the journal hash at the anchored sequence differs from the anchor, so history was rewritten"
)

func reasonAllFailed(n int) string {
	return fmt.Sprintf("all %d anchor attempt(s) for this epoch definitively failed and none is in flight", n)
}

func reasonPending(status string) string {
	return fmt.Sprintf("the latest unresolved anchor is %s and not yet confirmed", status)
}

func reasonStale(lag int64) string {
	return fmt.Sprintf("%d event(s) recorded since the latest confirmed anchor; the anchored prefix recomputes intact", lag)
}
