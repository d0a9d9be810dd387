package answer

// members names, per operation, the one member of the answer whose value
// is what the receipt stores. The reference's store functions return the
// bare task (decision, report, presence session) and its MCP face wraps
// it; their receipts hold the bare object and a replay wraps it again.
// Receipts of operations that answer several members ({task, artifact},
// {handoff, task}, {task, review, report}) hold the whole answer. Both
// implementations must agree on this table byte for byte: a retry may be
// answered by the implementation that did not write the receipt.
var members = map[string]string{
	"task.create": "task", "task.claim": "task", "task.renew": "task", "task.progress": "task",
	"task.release": "task", "task.block": "task", "task.unblock": "task", "task.complete": "task",
	"task.create.v2": "task", "task.claim.v2": "task", "task.renew.v2": "task", "task.progress.v2": "task",
	"task.release.v2": "task", "task.block.v2": "task", "task.unblock.v2": "task", "task.complete.v2": "task",
	"task.recover.v2":   "task",
	"decision.record":   "decision",
	"report.append.v2":  "report",
	"session.heartbeat": "session", "session.leave": "session",
	"cursor.reset.v2": "session",
}

// Member returns the member whose value alone the receipt of operation
// stores; ok is false when the receipt holds the whole answer.
func Member(operation string) (name string, ok bool) {
	name, ok = members[operation]
	return name, ok
}

// Single is an answer of exactly one member, {name: value}. Answers of the
// operations Member names implement it, so their receipts can be encoded
// from the value directly.
type Single interface {
	Single() (name string, value any)
}
