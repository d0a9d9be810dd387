package normalize

import "github.com/agenttool/collab/core/field"

// MaxIDLength is the longest identifier, idempotency key or actor, in
// UTF-16 code units: the identifier rule's bound (field.MaxID). Every
// other limit is read from the field table (core/field).
const MaxIDLength = field.MaxID
