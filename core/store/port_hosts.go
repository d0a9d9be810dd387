package store

import "context"

// SessionHost says what holds a credential-bound session: the kind of
// host (an MCP server on stdio or over HTTP, a person's command), the MCP
// client that named itself in initialize, the HTTP token's name, and the
// holding process where one process holds it for its whole life. It is
// recorded when a session starts or is resumed and whenever the holder
// learns more (a client's initialize arriving after a startup resume),
// beside the journal and outside the hash chain: recording it appends no
// event, and the reference's tools never read it.
type SessionHost struct {
	SessionID   string `json:"session_id"`
	WorkspaceID string `json:"workspace_id"`
	// Kind is how the session is held (HostKind values).
	Kind HostKind `json:"kind"`
	// Client and ClientVersion are what the MCP client sent as
	// clientInfo (name, version) in initialize, or the person's command
	// ("collab" and its version); "" when not known.
	Client        string `json:"client"`
	ClientVersion string `json:"client_version"`
	// Principal is the name of the HTTP bearer token the client
	// presented; "" on other hosts.
	Principal string `json:"principal"`
	// Machine is the host name of the machine the holder runs on.
	Machine string `json:"machine"`
	// PID is the holding process, 0 when no one process holds the
	// session (a person's commands, an HTTP client); ProcessStart (clock
	// ticks after boot) and BootID identify it across time where the
	// system tells them (Linux), else they are 0 and "".
	PID          int64  `json:"pid"`
	ProcessStart int64  `json:"process_start"`
	BootID       string `json:"boot_id"`
	RecordedAt   string `json:"recorded_at"`
}

// HostKind is how a session is held.
type HostKind string

// The kinds of holder a session can have.
const (
	// HostStdio is an MCP server process on stdio, started by its host
	// application (Claude Code, Codex, Hermes…): the process holds the
	// session for as long as it runs.
	HostStdio HostKind = "mcp_stdio"
	// HostHTTP is an MCP client of `serve` over Streamable HTTP.
	HostHTTP HostKind = "mcp_http"
	// HostPersonCLI is a person's commands at the terminal, one short
	// process per command.
	HostPersonCLI HostKind = "person_cli"
	// HostPersonWeb is a person acting from the web view.
	HostPersonWeb HostKind = "person_web"
)

// SessionHosts stores what holds each session (SessionHost), one record
// per session.
type SessionHosts interface {
	// PutSessionHost stores h as the record of its session, replacing
	// the one before.
	PutSessionHost(ctx context.Context, h SessionHost) error
	// SessionHostsOf returns the records of a workspace's sessions, by
	// session id. An engine whose store has never held one returns none.
	SessionHostsOf(ctx context.Context, workspaceID string) ([]SessionHost, error)
}
