// Package mcp is the MCP face of collab: every tool as data (defs*.go:
// definition, schema, annotations and handler together, listed once by
// catalogue in the order tools/list gives), the per-process session state
// the handlers share (Process), and the one Dispatcher that answers every
// request a client sends, whatever carries it.
//
// This package owns the protocol: initialize (version negotiation over
// ProtocolVersions), ping, tools/list, tools/call, and every error code
// and message of the edges. Serve is the stdio server loop around the
// dispatcher (package stdio frames the lines); hosts/httpserve answers
// Streamable HTTP through the same dispatcher. The go-sdk module gives
// only the JSON-RPC message types and the MCP protocol structs results
// are encoded from; its server is not used.
package mcp
