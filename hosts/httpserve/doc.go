// Package httpserve serves the collab MCP tools to many clients from one
// process over MCP Streamable HTTP (path /mcp, plus an unauthenticated
// /healthz that returns no data).
//
// Each HTTP MCP session is one logical client with exactly the binding
// rules of one stdio process: it gets its own hosts/mcp.Process over the
// shared store, so it binds at most one collab session, is fenced by
// generation and keeps its own cursor. Calls of different sessions run
// concurrently; the calls of one session run one at a time.
//
// Who may connect: every request must carry a bearer token from the token
// file (core/tokens) unless the server was told that loopback needs none.
// Host and Origin are checked (DNS-rebinding defence), bodies are bounded,
// and each client has a bounded number of requests in flight. Live MCP
// sessions are capped per client and in total, and idle ones end, sooner
// when they never bound a collab session (sessions.go); what no session
// changes (the toolset) is shared. A drain answers pending collab_wait
// calls at once, and a GET stream ends when its token stops admitting it. A token is
// never logged; a credential file never leaves the server: a client that
// sends X-Collab-Client-Instance gets its bound session back on its next
// MCP session (see resume.go and core/seat.ResumeIndex).
package httpserve
