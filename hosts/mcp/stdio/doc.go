// Package stdio is the MCP stdio transport: newline-delimited JSON-RPC 2.0
// framed by this package rather than by a stream decoder, so that one
// malformed line is answered with a JSON-RPC error and never ends the
// session, a truncated line never swallows the lines after it, and an
// over-long line is skipped with bounded memory.
//
// The transport also keeps the promise that every request read before
// the input ends is answered: at the end of input it holds back io.EOF
// from the server until each request it handed over has had its response
// written.
package stdio
