package store

import "github.com/agenttool/collab/core/answer"

// marshalNoEscape renders a column value (dependencies, path scopes,
// capabilities) exactly as answers are rendered: compact, no HTML
// escaping, U+2028/U+2029 raw, as JSON.stringify writes them.
func marshalNoEscape(v any) ([]byte, error) { return answer.Encode(v) }
