package mcp

import (
	"bytes"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// ProtocolVersions are the MCP protocol versions this server speaks, newest
// first, as the reference does: a client's version in this list is echoed,
// any other is answered with the first.
var ProtocolVersions = []string{"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"}

// NegotiateVersion returns the protocol version answered to a client that
// asks for requested: the same version when this server speaks it (see
// ProtocolVersions), else the newest.
func NegotiateVersion(requested string) string {
	for _, v := range ProtocolVersions {
		if v == requested {
			return v
		}
	}
	return ProtocolVersions[0]
}

// checkInitialize returns the protocol version an initialize with these
// params is answered with, or the error refusing it when the params do not
// have the shapes the MCP schema fixes (-32603, as the reference answers).
func checkInitialize(params json.RawMessage) (string, *jsonrpc.Error) {
	requested, problem := checkInitializeParams(params)
	if problem != "" {
		return "", &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "Invalid initialize request: " + problem}
	}
	return NegotiateVersion(requested), nil
}

// checkInitializeParams returns the requested protocol version, or what
// is wrong with the params: the shapes the MCP schema fixes for
// protocolVersion, capabilities and clientInfo.
func checkInitializeParams(raw json.RawMessage) (string, string) {
	var p struct {
		ProtocolVersion json.RawMessage            `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
		ClientInfo      map[string]json.RawMessage `json:"clientInfo"`
	}
	if jsonKind(raw) != '{' || json.Unmarshal(raw, &p) != nil {
		return "", "params must be an object with protocolVersion, capabilities and clientInfo"
	}
	var version string
	if jsonKind(p.ProtocolVersion) != '"' || json.Unmarshal(p.ProtocolVersion, &version) != nil {
		return "", "protocolVersion must be a string"
	}
	if p.Capabilities == nil {
		return "", "capabilities must be an object"
	}
	for _, name := range []string{"experimental", "roots", "sampling", "elicitation"} {
		if v, ok := p.Capabilities[name]; ok && jsonKind(v) != '{' {
			return "", "capabilities." + name + " must be an object"
		}
	}
	if p.ClientInfo == nil {
		return "", "clientInfo must be an object"
	}
	for _, name := range []string{"name", "version"} {
		if jsonKind(p.ClientInfo[name]) != '"' {
			return "", "clientInfo." + name + " must be a string"
		}
	}
	if v, ok := p.ClientInfo["title"]; ok && jsonKind(v) != '"' {
		return "", "clientInfo.title must be a string"
	}
	return version, ""
}

// callParams are the parts of tools/call params this server reads.
type callParams struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// checkCallParams reads tools/call params, or says what is wrong with
// them: they must be an object with a string name and, if present,
// object arguments.
func checkCallParams(raw json.RawMessage) (callParams, string) {
	var params map[string]json.RawMessage
	if jsonKind(raw) != '{' || json.Unmarshal(raw, &params) != nil {
		return callParams{}, "params must be an object"
	}
	var c callParams
	if jsonKind(params["name"]) != '"' || json.Unmarshal(params["name"], &c.Name) != nil {
		return callParams{}, "name must be a string"
	}
	if args, ok := params["arguments"]; ok && jsonKind(args) != '{' {
		return callParams{}, "arguments must be an object"
	}
	c.Arguments = params["arguments"]
	return c, ""
}

// jsonKind is the first byte of a JSON value ('{', '[', '"', 'n', ...), or
// 0 for none.
func jsonKind(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}
