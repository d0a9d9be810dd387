package field

// table holds every field's rule, indexed by Field. It is written only
// here, at initialisation; readers get copies through Field.Spec.
var table = [...]Spec{
	WorkspaceID:      id("workspace_id"),
	TaskID:           id("task_id"),
	NewTaskID:        id("task_id"),
	LeaseID:          id("lease_id"),
	SessionID:        id("session_id"),
	ParentSessionID:  id("parent_session_id"),
	ToSessionID:      id("to_session_id"),
	ClientInstanceID: id("client_instance_id"),
	HandoffID:        id("handoff_id"),
	ReportID:         id("report_id"),
	TargetReportID:   id("target_report_id"),
	IdempotencyKey:   id("idempotency_key"),
	Dependency:       id("dependency"),
	ClaimID:          id("claim_id"),

	Actor:         also(text("actor", 1, MaxID), "actor_label", "to_actor"),
	RuntimeKind:   pattern(text("runtime_kind", 1, 64), IDPattern),
	ProviderLabel: text("provider_label", 1, 100),
	ModelLabel:    text("model_label", 1, 200),
	Role:          text("role", 0, 200),
	EndReason:     text("reason", 0, 2000),
	ResetReason:   text("reason", 1, 2000),

	// The store reads root_path and repository_key through Git and the
	// path rules; only the tool schemas bound them.
	WorkspaceName: text("name", 0, 200),
	RootPath:      text("root_path", 1, 0),
	RepositoryKey: text("repository_key", 1, 1000),

	Title:          text("title", 1, 300),
	Description:    text("description", 0, 8000),
	PathScope:      text("path_scope", 1, 500),
	Message:        text("message", 1, 2000),
	Blocker:        text("blocker", 1, 2000),
	ReleaseSummary: text("summary", 0, 2000),
	UnblockNote:    text("note", 0, 2000),
	RecoveryNote:   text("recovery_note", 1, 4000),
	Summary:        text("summary", 1, 4000),

	URI:       text("uri", 1, 2000),
	MediaType: text("media_type", 0, 200),
	Label:     text("label", 0, 300),

	// The reference's schema advertises 8000 characters for a body and
	// its store accepts 9000; both are kept, here and only here.
	Body:            schemaMax(text("body", 1, 9000), 8000),
	ConfidenceBasis: text("confidence_basis", 0, 2000),
	Limits:          text("limits", 0, 2000),
	AuthorityScope:  text("authority_scope", 0, 1000),
	AuthorityBasis:  text("authority_basis", 0, 2000),
	Topic:           text("topic", 1, 500),
	Decision:        text("decision", 1, 4000),
	Rationale:       text("rationale", 0, 4000),
	MarkNote:        text("note", 1, 2000),

	EvidenceRef:        text("evidence_ref", 1, 2000),
	DeclaredCapability: pattern(text("declared_capability", 1, 100), IDPattern),
	EpochID:            text("epoch_id", 1, 0),
	SearchBound:        also(text("since", 1, 64), "until"),
	SearchCursor:       text("cursor", 1, 1000),
	ClaimTopic:         pattern(text("topic", 1, 64), `^[A-Za-z0-9._-]+$`),

	SHA256:          hex("sha256", 64, 64),
	ExpectedBaseSHA: pattern(hex("expected_base_sha", 40, 64), `^[a-fA-F0-9]{40,64}$`),
	AnchorHash:      hex("hash", 64, 64),

	ExpectedVersion:  Spec{Name: "expected_version", Kind: Integer, Min: 1},
	LeaseTTL:         Spec{Name: "ttl_seconds", Kind: Integer, Min: 30, Max: 3600, Default: 900},
	PresenceTTL:      Spec{Name: "ttl_seconds", Kind: Integer, Min: 30, Max: 3600, Default: 120},
	PageLimit:        Spec{Name: "limit", Kind: Integer, Min: 1, Max: 500},
	SessionListLimit: Spec{Name: "limit", Kind: Integer, Min: 1, Max: 500, Default: 100},
	EventLimit:       Spec{Name: "event_limit", Kind: Integer, Min: 1, Max: 50, Default: 10},
	ReceiptLimit:     Spec{Name: "limit", Kind: Integer, Min: 1, Max: 50, Default: 20},
	ClaimTTL:         Spec{Name: "ttl_seconds", Kind: Integer, Min: 60, Max: 7 * 24 * 3600, Default: 24 * 3600},

	Dependencies:         list("dependencies", 128, Dependency),
	PathScopes:           list("path_scopes", 128, PathScope),
	EvidenceRefs:         list("evidence_refs", 128, EvidenceRef),
	DeclaredCapabilities: list("declared_capabilities", 32, DeclaredCapability),
	ReportIDs:            list("report_ids", 50, ReportID),
	HandoffIDs:           list("handoff_ids", 50, HandoffID),
}

// id is the row of an identifier field called name.
func id(name string) Spec {
	return Spec{Name: name, Kind: Identifier, Min: 1, Max: MaxID, Pattern: IDPattern}
}

// text is the row of a free-text field; min is the least length the tool
// schema states (1 for a field that may not be sent empty, else 0).
func text(name string, min, max int64) Spec {
	return Spec{Name: name, Kind: Text, Min: min, Max: max}
}

// hex is the row of a digest of min to max hexadecimal digits.
func hex(name string, min, max int64) Spec {
	return Spec{Name: name, Kind: Hex, Min: min, Max: max}
}

// list is the row of an array of at most max entries, each ruled by item.
// item must be declared above the list in the table.
func list(name string, max int64, item Field) Spec {
	return Spec{Name: name, Kind: List, Max: max, Item: item}
}

func pattern(s Spec, p string) Spec     { s.Pattern = p; return s }
func schemaMax(s Spec, n int64) Spec    { s.SchemaMax = n; return s }
func also(s Spec, names ...string) Spec { s.Also = names; return s }
