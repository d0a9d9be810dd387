package mcp

// Shared argument schemas. Each call returns a fresh schema so tools never
// share (and so never mutate) one another's definitions.

const idPattern = `^[A-Za-z0-9][A-Za-z0-9._:-]*$`

func workspaceIDField() *Schema {
	return str().min(1).describe("Workspace ID from collab_workspace_open or collab_session_start")
}

func actorField() *Schema {
	return str().min(1).max(200).describe("Display label for legacy (unbound) mode; a bound session ignores it and acts under its own credential")
}

func idempotencyKeyField() *Schema {
	return str().min(1).max(200).describe("Key unique to this intended change; repeating a call with the same key and arguments returns the first result")
}

func taskIDField() *Schema { return str().min(1).describe("Task ID") }

func leaseIDField() *Schema {
	return str().min(1).describe("Lease ID from the claim, recovery or handoff that gave you the task")
}

func expectedVersionField() *Schema {
	return integer().above(0).describe("The task version you last read; the call fails if the task has changed since")
}

func leaseTTLField() *Schema {
	return integer().atLeast(30).atMost(3600).describe("Lease length in seconds (30 to 3600, default 900)")
}

func presenceTTLField() *Schema {
	return integer().atLeast(30).atMost(3600).describe("How long the presence hint stays live, in seconds (30 to 3600, default 120)")
}

func anchorField(what string) *Schema {
	return object([]Property{
		{"epoch_id", str().min(1)},
		{"sequence", integer().atLeast(0)},
		{"hash", str().length(64)},
	}, "epoch_id", "sequence", "hash").describe(what)
}

func evidenceRefsField() *Schema {
	return array(str().min(1).max(2000)).max(128).
		describe("References such as artifact:<id>, event:<id>, report:<id> or checkpoint:<digest>")
}

func confidenceField() *Schema {
	return enum("high", "medium", "low", "unknown").describe("How sure the author is of this claim (default unknown)")
}

// leaseProps are the arguments every lease-holder mutation takes.
func leaseProps(extra ...Property) []Property {
	return append([]Property{
		{"workspace_id", workspaceIDField()},
		{"task_id", taskIDField()},
		{"lease_id", leaseIDField()},
		{"actor", actorField()},
		{"idempotency_key", idempotencyKeyField()},
		{"expected_version", expectedVersionField()},
	}, extra...)
}

// leaseRequired lists the lease arguments every lease mutation requires.
func leaseRequired(extra ...string) []string {
	return append([]string{"workspace_id", "task_id", "lease_id", "idempotency_key", "expected_version"}, extra...)
}
