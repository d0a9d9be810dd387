package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Class is a tool's annotation class: what a host may assume about a call.
type Class int

const (
	// ReadOnly tools never write.
	ReadOnly Class = iota
	// RetrySafe tools write, and repeating the same call is harmless.
	RetrySafe
	// Mutating tools write and must not be repeated blindly.
	Mutating
	// Destructive tools end or remove something.
	Destructive
)

// String names the class the way the generated docs do.
func (c Class) String() string {
	return [...]string{"read-only", "retry-safe", "mutating", "destructive"}[c]
}

// annotations renders the class as MCP tool annotations. Every hint is
// set explicitly; none is left to a client's default.
func (c Class) annotations() *sdk.ToolAnnotations {
	f, t := false, true
	a := &sdk.ToolAnnotations{OpenWorldHint: &f, DestructiveHint: &f}
	switch c {
	case ReadOnly:
		a.ReadOnlyHint, a.IdempotentHint = true, true
	case RetrySafe:
		a.IdempotentHint = true
	case Destructive:
		a.DestructiveHint = &t
	}
	return a
}

// Handler runs one validated tool call for the process's session state and
// returns the structured result, or a refusal/infrastructure error.
type Handler func(ctx context.Context, p *Process, args Args) (any, error)

// Tool is one collab tool as data: its public definition and its handler.
type Tool struct {
	Name        string
	Title       string
	Description string
	Class       Class
	Input       *Schema
	// Handle serves the tool. Tools sets it from the handler the tool's
	// constructor returns beside the definition (see catalogue).
	Handle Handler
	// Waits marks a handler that blocks: the process does not serialise
	// it with other calls, and it takes the process lock only to read the
	// binding.
	Waits bool
}
