package program

import (
	"fmt"
	"io"
)

// PrintPeopleUsage writes what collab run without arguments prints: the
// people's commands. (Run under that name the binary prints this instead of
// serving MCP and waiting silently on stdin; every subcommand works under
// both names.)
func PrintPeopleUsage(w io.Writer) {
	fmt.Fprint(w, `collab: see and steer what coding agents coordinate in a collab journal

Try it:
  collab demo [--json] [--keep DIR]    three agents coordinate on a throwaway repository

Read (read-only; never migrates; --json on every command; --db FILE, --root DIR, --workspace W, --ids):
  collab status                        journal head and verification, sessions vs presence, tasks, reviews
  collab tail [-f] [--since SEQ] [--kind K] [--actor A] [--session NAME]
  collab tasks [--status S] [--all]    collab show TASK
  collab reports [--to NAME] [--kind K]   collab decisions   collab sessions [NAME]   collab handoffs [--all]

Act as a person (a credential-bound session of your own, same rules as any agent):
  collab post MESSAGE [--to NAME] [--task TASK]
  collab decide TOPIC DECISION [--rationale R]
  collab review TASK --accept | --request-changes [--summary TEXT]
  collab task create TITLE --path P [--depends T] [--mode M] [--stdin | --file F]
  collab task claim|renew|release TASK    collab task complete TASK --summary TEXT
  collab task handoff offer TASK --to NAME --summary TEXT    collab task recover TASK --note TEXT
  collab handoff respond HANDOFF --accept | --decline   (also: collab task handoff respond)
  collab whoami                        collab logout

A session NAME is an actor label (ben), a short id (session_1a2b3c4d) or an id; a workspace W is its
name, its id or any directory inside the repository. Output names sessions by label; --ids adds the ids.

Exit codes: 0 done, 1 refused or a check failed, 2 usage or nothing to work on.
The MCP server is the same binary: agenttool-collab-mcp (run without arguments).
`)
}
