package mcp

import (
	"fmt"
	"strings"
)

// ToolTable renders the Markdown table of every tool (name, annotation
// class, one-line purpose) that docs/tools.md holds. It is generated from
// the definitions so the document cannot drift from the server.
func ToolTable() string {
	var b strings.Builder
	b.WriteString("# collab tools\n\n")
	b.WriteString("Generated from `hosts/mcp` tool definitions by `go generate ./hosts/mcp`; do not edit by hand.\n\n")
	b.WriteString("Annotation classes: **read-only** never writes; **retry-safe** writes, and repeating the same call (same idempotency key) is harmless; **mutating** writes and should not be repeated blindly; **destructive** ends or removes something.\n\n")
	b.WriteString("| tool | class | purpose |\n|---|---|---|\n")
	for _, t := range Definitions() {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", t.Name, t.Class, t.Title)
	}
	return b.String()
}
