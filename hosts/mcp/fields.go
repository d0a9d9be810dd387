package mcp

import (
	"strconv"

	"github.com/agenttool/collab/core/field"
)

// Argument schemas, each rendered from its row of the field table
// (core/field), so a limit is stated once for the schema and the store.
// Each call returns a fresh schema so tools never share (and so never
// mutate) one another's definitions.

// textField states a text field's whole rule: its least length when it
// has one, its advertised most and its pattern.
func textField(f field.Field) *Schema {
	s := f.Spec()
	out := str()
	if s.Min > 0 {
		out.min(int(s.Min))
	}
	if m := s.StatedMax(); m > 0 {
		out.max(int(m))
	}
	if s.Pattern != "" {
		out.matching(s.Pattern)
	}
	return out
}

// idField states only that an identifier is not empty, as the reference's
// schemas do for most of them; the store applies the rest of the rule.
func idField(f field.Field) *Schema { return str().min(int(f.Spec().Min)) }

// boundedIDField states an identifier's length bounds but not its pattern.
func boundedIDField(f field.Field) *Schema { return idField(f).max(int(f.Spec().Max)) }

// fullIDField states an identifier's whole rule.
func fullIDField(f field.Field) *Schema { return boundedIDField(f).matching(f.Spec().Pattern) }

// hexField states a digest: its pattern when the row has one, otherwise
// its length bounds.
func hexField(f field.Field) *Schema {
	s := f.Spec()
	if s.Pattern != "" {
		return str().matching(s.Pattern)
	}
	return str().min(int(s.Min)).max(int(s.Max))
}

// countField states a whole number's range.
func countField(f field.Field) *Schema {
	s := f.Spec()
	out := integer().atLeast(s.Min)
	if s.Max > 0 {
		out.atMost(s.Max)
	}
	return out
}

// listField states a list of at most the row's Max entries, each as item
// states it.
func listField(f field.Field, item *Schema) *Schema {
	return array(item).max(int(f.Spec().Max))
}

func workspaceIDField() *Schema {
	return idField(field.WorkspaceID).describe("Workspace ID from collab_workspace_open or collab_session_start")
}

func actorField() *Schema {
	return textField(field.Actor).describe("Display label for legacy (unbound) mode; a bound session ignores it and acts under its own credential")
}

func idempotencyKeyField() *Schema {
	return boundedIDField(field.IdempotencyKey).describe("Key unique to this intended change; repeating a call with the same key and arguments returns the first result")
}

func taskIDField() *Schema { return idField(field.TaskID).describe("Task ID") }

func leaseIDField() *Schema {
	return idField(field.LeaseID).describe("Lease ID from the claim, recovery or handoff that gave you the task")
}

// versionField states the least row version as the reference does, as an
// exclusive minimum one below it.
func versionField() *Schema { return integer().above(field.ExpectedVersion.Spec().Min - 1) }

func expectedVersionField() *Schema {
	return versionField().describe("The task version you last read; the call fails if the task has changed since")
}

func leaseTTLField() *Schema {
	return countField(field.LeaseTTL).describe(ttlDescription("Lease length in seconds", field.LeaseTTL))
}

func presenceTTLField() *Schema {
	return countField(field.PresenceTTL).describe(ttlDescription("How long the presence hint stays live, in seconds", field.PresenceTTL))
}

// ttlDescription tells the model a lifetime's range and default.
func ttlDescription(what string, f field.Field) string {
	s := f.Spec()
	return what + " (" + strconv.FormatInt(s.Min, 10) + " to " + strconv.FormatInt(s.Max, 10) + ", default " + strconv.FormatInt(s.Default, 10) + ")"
}

// eventLimitDescription tells the model collab_next's page size.
func eventLimitDescription() string {
	s := field.EventLimit.Spec()
	return "Events per page, " + strconv.FormatInt(s.Min, 10) + " to " + strconv.FormatInt(s.Max, 10) + " (default " + strconv.FormatInt(s.Default, 10) + ")"
}

func anchorField(what string) *Schema {
	return object([]Property{
		{"epoch_id", textField(field.EpochID)},
		{"sequence", integer().atLeast(0)},
		{"hash", hexField(field.AnchorHash)},
	}, "epoch_id", "sequence", "hash").describe(what)
}

func evidenceRefsField() *Schema {
	return listField(field.EvidenceRefs, textField(field.EvidenceRef)).
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
