package normalize

// Limits fixed by the contract (docs/contract.md#text-rules-and-limits).
// Lengths are UTF-16 code units.
const (
	MaxIDLength         = 200  // identifiers, idempotency keys and actors
	MaxRuntimeKind      = 64   // runtime_kind
	MaxCapabilityLength = 100  // one declared_capability
	MaxCapabilities     = 32   // declared_capabilities per session
	MaxEvidenceRefs     = 128  // evidence_refs per report or completion
	MaxEvidenceRefLen   = 2000 // one evidence_ref
	MaxDependencies     = 128  // dependencies per task

	DefaultTTL         = 900  // lease and handoff seconds when none is given
	DefaultPresenceTTL = 120  // presence seconds when none is given
	MinTTL             = 30   // shortest lease, handoff or presence, seconds
	MaxTTL             = 3600 // longest lease, handoff or presence, seconds
)
