package field

// Field names one row of the table; Spec reads it.
type Field uint8

// The identifier fields. Each follows the identifier rule (IsID); the tool
// schemas of most state only that it is not empty, as the reference's do,
// and the store applies the whole rule.
const (
	WorkspaceID Field = iota + 1
	TaskID
	NewTaskID // task_id chosen by the creator of a task
	LeaseID
	SessionID
	ParentSessionID
	ToSessionID
	ClientInstanceID
	HandoffID
	ReportID
	TargetReportID
	IdempotencyKey
	Dependency // one entry of a task's dependencies
	ClaimID    // an independence claim (an extension)
)

// The free-text fields, by the tool family that takes them.
const (
	Actor Field = iota + 32 // every label naming a person or agent
	RuntimeKind
	ProviderLabel
	ModelLabel
	Role
	EndReason   // collab_session_end's reason
	ResetReason // collab_cursor_reset's reason
	WorkspaceName
	RootPath
	RepositoryKey
	Title
	Description
	PathScope // one entry of a task's path scopes
	Message
	Blocker
	ReleaseSummary
	UnblockNote
	RecoveryNote
	Summary // of a completion, a review or a handoff offer
	URI
	MediaType
	Label
	Body
	ConfidenceBasis
	Limits
	AuthorityScope
	AuthorityBasis
	Topic
	Decision
	Rationale
	MarkNote // the recipient's word on a delivery mark
	EvidenceRef
	DeclaredCapability
	EpochID
	SearchBound  // since and until of collab_search
	SearchCursor // next_cursor handed back to collab_search
	ClaimTopic   // the topic label of an independence claim
)

// The hexadecimal digests.
const (
	SHA256 Field = iota + 96
	ExpectedBaseSHA
	AnchorHash
)

// The whole-number fields.
const (
	ExpectedVersion Field = iota + 112
	LeaseTTL
	PresenceTTL
	PageLimit // collab_events_since and collab_report_list
	SessionListLimit
	EventLimit
	ReceiptLimit // collab_report_receipts without ids
	ClaimTTL     // how long an independence claim may stay open
)

// The lists.
const (
	Dependencies Field = iota + 128
	PathScopes
	EvidenceRefs
	DeclaredCapabilities
	ReportIDs  // collab_report_receipts
	HandoffIDs // collab_report_receipts
)

// Spec is the field's row of the table. It panics on a Field that names
// no row, which only a programming error can produce.
func (f Field) Spec() Spec {
	s := table[f]
	if s.Kind == 0 {
		panic("field: a Field that names no row of the table")
	}
	return s
}

// All lists every row of the table, in Field order.
func All() []Field {
	var out []Field
	for f := range table {
		if table[f].Kind != 0 {
			out = append(out, Field(f))
		}
	}
	return out
}
