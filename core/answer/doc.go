// Package answer is the one place that renders what collab's idempotent
// mutations answer, and what their receipts store.
//
// A mutation's answer is a small object ({task}, {task, artifact},
// {handoff, task}, {task, review, report}, {decision}, {report},
// {session}). Its idempotency receipt must be written in the reference
// implementation's form inside the mutation's transaction, because a retry
// may be answered by either implementation: for a single-member answer the
// receipt holds the member's value alone, otherwise the whole answer
// (see Member). So the store renders the receipt through this package, and
// the answer a caller gets is built from those very bytes: a first call and
// its retries answer byte for byte alike by construction.
//
// A replay carries bytes, never a decoded value: the receipt may have been
// written by the reference, and decoding and re-encoding it could reorder
// keys or change number and string spellings.
package answer
