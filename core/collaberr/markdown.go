package collaberr

import (
	"fmt"
	"strings"
)

// Markdown renders docs/errors.md from Registry: one table per area, each
// code with when it happens and what to do. The document cannot drift from
// the code: TestErrorsDocIsCurrent fails when the committed page differs.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# Refusal codes\n\n")
	b.WriteString("Generated from the registry in `core/collaberr` by `go generate ./core/collaberr`; do not edit by hand.\n\n")
	b.WriteString("A refused tool call is a tool result with `isError: true` whose structured content is `{\"error\": <code>, \"message\": <text>, ...details}`. ")
	b.WriteString("The code is stable and meant for programs; the message is for people, says what to do next, and may be reworded. ")
	b.WriteString("Some refusals add details as further top-level keys (for example `task_id` or `current_version`). ")
	b.WriteString("A call whose arguments break the tool's input schema is rejected before it runs, with a text-only result and no code.\n\n")
	b.WriteString("Every code below except those marked *(extension)* is shared with `@agenttool/collab` 0.4.0 and emitted in the same situations; ")
	b.WriteString("the extensions come from tools and checks this implementation adds. ")
	b.WriteString("The reference also declares `artifact_not_found`, `decision_not_found`, `review_not_found` and `invalid_sql_identifier`, ")
	b.WriteString("but raises them only when re-reading a row it has just written in the same transaction or when checking its own table names, ")
	b.WriteString("so no call reaches them; collab does not emit them.\n")
	area := ""
	for _, e := range Registry() {
		if e.Area != area {
			area = e.Area
			fmt.Fprintf(&b, "\n## %s\n\n| code | when | what to do |\n|---|---|---|\n", area)
		}
		code := "`" + string(e.Code) + "`"
		if e.Extension {
			code += " *(extension)*"
		}
		fmt.Fprintf(&b, "| %s | %s | %s |\n", code, e.When, e.Do)
	}
	return b.String()
}
