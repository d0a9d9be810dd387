package store

// Viewer is who a view is for: a credential-bound session (SessionID set,
// Actor its label) or a legacy actor label (SessionID empty).
type Viewer struct {
	SessionID string
	Actor     string
}
