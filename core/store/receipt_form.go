package store

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// receiptMember names, per operation, the one member of the answer whose
// value is what the receipt stores. The reference's store functions return
// the bare task (decision, report, presence session) and the MCP face wraps
// it; their receipts hold the bare object and a replay wraps it again.
// Receipts of operations that answer several members ({task, artifact},
// {handoff, task}, {task, review, report}) hold the whole answer. Both
// implementations must agree on this table byte for byte: a retry may be
// answered by the implementation that did not write the receipt.
var receiptMember = map[string]string{
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

// receiptBytes turns an answer into the bytes its receipt stores.
func receiptBytes(operation string, answer []byte) ([]byte, error) {
	member, ok := receiptMember[operation]
	if !ok {
		return answer, nil
	}
	var whole map[string]json.RawMessage
	if err := json.Unmarshal(answer, &whole); err != nil {
		return nil, fmt.Errorf("split %s answer: %w", operation, err)
	}
	inner, ok := whole[member]
	if !ok || len(whole) != 1 {
		return nil, fmt.Errorf("%s answer is not a single %q member", operation, member)
	}
	return inner, nil
}

// answerBytes turns a stored receipt back into the answer a replay gives.
// A receipt that already holds the wrapped answer (written by versions of
// this implementation before it matched the reference) is returned as it
// is, so those databases keep replaying correctly here.
func answerBytes(operation string, stored []byte) []byte {
	member, ok := receiptMember[operation]
	if !ok {
		return stored
	}
	prefix := []byte(`{"` + member + `":`)
	if bytes.HasPrefix(stored, []byte(`{"`+member+`":{`)) {
		return stored
	}
	out := make([]byte, 0, len(stored)+len(prefix)+1)
	out = append(append(append(out, prefix...), stored...), '}')
	return out
}
