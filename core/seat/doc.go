// Package seat holds one caller's place at a collab store: at most one
// credential-bound session (its binding, loaded from or written to its
// credential file), the turn that serialises the caller's calls, who the
// caller is (the bound session, or an authenticated principal's label),
// the scrub that keeps secrets out of anything leaving the process, and
// the resume of a session from its credential file.
//
// A seat works in Go values only (store inputs and typed answers); it
// knows nothing of MCP, HTTP or a terminal. The stdio and HTTP servers
// hold one seat per MCP session, the people's commands one per run.
package seat
