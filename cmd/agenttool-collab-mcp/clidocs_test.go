package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/golden"
)

// docStep is one command docs/cli.md shows, with why a person runs it (a
// step without a why continues the one before).
type docStep struct {
	why  string
	args []string
}

// docInputs are the lines piped into the steps whose first two arguments
// and third they are keyed by, as "task create TITLE".
var docInputs = map[string]string{
	"task create Write the upgrade notes": "Say what changed and list the steps.",
}

// inputOf is the line piped into st, "" for none.
func inputOf(st docStep) string {
	if len(st.args) < 3 {
		return ""
	}
	return docInputs[strings.Join(st.args[:3], " ")]
}

var docSteps = []docStep{
	{"Watch three agents coordinate (here kept with `--keep DIR`, which the other examples read):", []string{"demo", "--keep", "DIR"}},
	{"The workspace at a glance; exit 1 if the journal does not verify:", []string{"status"}},
	{"The journal, one line per event saying what it recorded (a report's text, a task's title and id, a handoff's summary; `--json` prints each whole event; `-f` keeps following; `--kind` takes a type or a prefix):", []string{"tail", "--kind", "task"}},
	{"Tasks by effective status:", []string{"tasks"}},
	{"One task in full:", []string{"show", "rate-limiter"}},
	{"Reports, optionally `--to NAME` or `--kind K`; sessions are named by their actor's label:", []string{"reports"}},
	{"Decisions:", []string{"decisions"}},
	{"Bound sessions with their state and host (see \"Sessions that end\" below), short ids (`--ids` for whole ones), and self-declared presence kept apart:", []string{"sessions"}},
	{"What a name means: `sessions NAME` lists the session it names, or every session when a label is shared:", []string{"sessions", "ben"}},
	{"A workspace by name, or by any directory inside the repository (`--workspace ./src/api`):", []string{"tasks", "--workspace", "repo"}},
	{"Handoffs, replayed from the journal (open ones unless `--all`):", []string{"handoffs", "--all"}},
	{"Acting as a person: the first action starts your own session:", []string{"post", "Please keep the limiter config in one file.", "--as", "pat", "--task", "rate-limiter"}},
	{"Address an agent by name (an actor label, a short id such as `session_1a2b3c4d`, or a whole id); ben's agent sees it in `collab_next`:", []string{"post", "Ben, the limiter config now lives in config/limits.toml.", "--to", "ben"}},
	{"A name no live session bears (or one several bear) is refused with the candidates, and nothing is written:", []string{"post", "Are you there?", "--to", "dora"}},
	{"Reports to one session, by name; `--ids` shows the ids beside the labels:", []string{"reports", "--to", "ben", "--ids"}},
	{"Who you are in this workspace (the credential itself is never shown):", []string{"whoami"}},
	{"Verify blind: while the claim is open your commands withhold others' material on the task (docs/independence.md):", []string{"independence", "claim", "--task", "rate-limiter", "--note", "re-checking the limiter myself"}},
	{"Who verifies what independently, and which tasks were accepted after an independent review:", []string{"independence", "list"}},
	{"What the claim withholds shows only that it exists:", []string{"show", "rate-limiter"}},
	{"A refusal names the problem and the fix (exit 1):", []string{"review", "rate-limiter", "--accept"}},
	{"Task work, as a person: the subcommands (each has its own `-h`):", []string{"task", "--help"}},
	{"Create a task; a long description can be piped in (`--stdin`) or read from a file (`--file F`):",
		[]string{"task", "create", "Write the upgrade notes", "--id", "upgrade-notes", "--path", "notes/upgrade", "--stdin"}},
	{"Claim it (a lease of 15 minutes unless `--ttl SECONDS`); agents see the claim through `collab_next`:",
		[]string{"task", "claim", "upgrade-notes"}},
	{"A claim whose paths overlap a claimed task's is refused, naming the task and its holder:",
		[]string{"task", "create", "Write a guide", "--id", "guide", "--path", "docs/guide"}},
	{"", []string{"task", "claim", "guide"}},
	{"Keep the lease for longer (a renewal never shortens it):", []string{"task", "renew", "upgrade-notes", "--ttl", "1800"}},
	{"Report it done, with a summary (also `--stdin`), evidence references and confidence; an edit task then waits for another session's review:",
		[]string{"task", "complete", "upgrade-notes", "--summary", "Notes written.", "--confidence", "high"}},
	{"Work that edits no files needs no paths:", []string{"task", "create", "Tidy the changelog", "--id", "tidy", "--mode", "coordination"}},
	{"", []string{"task", "claim", "tidy"}},
	{"Offer it to another session by name; you keep the lease until they accept, and their agent sees the offer in `collab_next`:",
		[]string{"task", "handoff", "offer", "tidy", "--to", "ben", "--summary", "The entries are sorted; the wording is yours."}},
	{"Give it back to the pool, saying what is left (pending offers of it expire):",
		[]string{"task", "release", "tidy", "--summary", "Sorted the entries; wording is left."}},
	{"Recovering is for a lease that ran out (the holder's process went away); here it had not:",
		[]string{"task", "recover", "tidy", "--note", "Taking over from a closed terminal."}},
	{"Answering a handoff needs an offer addressed to your session (`collab task handoff respond` is the same command):",
		[]string{"handoff", "respond", "handoff_none", "--accept"}},
	{"Every command has `--json`:", []string{"decisions", "--json"}},
	{"End your session (it must hold no live lease):", []string{"logout"}},
}

// TestCLIDocsAreCurrent regenerates docs/cli.md from real runs over a
// journal written by real server processes and fails when the committed
// page differs. Ids, hashes, times and paths are normalised.
func TestCLIDocsAreCurrent(t *testing.T) {
	dir := t.TempDir()
	kept, state := filepath.Join(dir, "kept"), filepath.Join(dir, "state")
	db := filepath.Join(kept, "state", "collab.sqlite")
	var page strings.Builder
	page.WriteString(docsHeader)
	for _, st := range docSteps {
		args := append([]string(nil), st.args...)
		if args[0] == "demo" {
			args[2] = kept
		} else {
			args = append(args, "--db", db)
		}
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = inherited(serveEnv+"=1", "XDG_STATE_HOME="+state, "COLLAB_PERSON=")
		input := inputOf(st)
		cmd.Stdin = strings.NewReader(input)
		out, _ := cmd.CombinedOutput()
		typed := "collab " + strings.Join(quoteArgs(st.args), " ")
		if input != "" {
			typed = "echo " + quoteArgs([]string{input})[0] + " | " + typed
		}
		if st.why != "" { // a step without a why continues the one before
			fmt.Fprintf(&page, "%s\n\n", st.why)
		}
		fmt.Fprintf(&page, "```console\n$ %s\n%s```\n", typed, normalise(string(out), kept))
		if code := cmd.ProcessState.ExitCode(); code != 0 {
			fmt.Fprintf(&page, "exit status %d\n", code)
		}
		page.WriteString("\n")
	}
	page.WriteString(docsFooter)
	path := filepath.Join("..", "..", "docs", "cli.md")
	golden.Check(t, path, []byte(page.String()))
}

func quoteArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " '") {
			a = "'" + a + "'"
		}
		out[i] = a
	}
	return out
}

var normalisers = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b([a-z]+)_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`), "${1}_<uuid>"},
	{regexp.MustCompile(`\b(ws|wt)_[0-9a-f]{24}\b`), "${1}_<id>"},
	{regexp.MustCompile(`\bsession_[0-9a-f]{8}\b`), "session_<short>"},
	{regexp.MustCompile(`\b[0-9a-f]{64}\b`), "<sha256>"},
	{regexp.MustCompile(`\b[0-9a-f]{40}\b`), "<sha1>"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`), "2026-07-01T12:00:00.000Z"},
	{regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d:\d\d`), "2026-07-01 12:00:00"},
	{regexp.MustCompile(`Done in \d+ ms`), "Done in 2500 ms"},
	{regexp.MustCompile(`"elapsed_ms": \d+`), `"elapsed_ms": 2500`},
	{regexp.MustCompile(`generation \d+`), "generation 2"},
	{regexp.MustCompile(`\bpid \d+`), "pid 4242"},
	{regexp.MustCompile(`\b(seen|seen for) \d+[smhd]\b`), "${1} 3s"},
}

// normalise replaces what differs between runs so the page is stable.
func normalise(out, kept string) string {
	out = strings.ReplaceAll(out, kept, "/home/you/demo")
	// The demo's closing commands name the program as it was started: here
	// the test binary, for a person the collab command.
	if exe, err := os.Executable(); err == nil {
		out = strings.ReplaceAll(out, "  "+exe+" ", "  collab ")
	}
	for _, n := range normalisers {
		out = n.re.ReplaceAllString(out, n.with)
	}
	return out
}

const docsHeader = `# The collab command line

Generated by ` + "`TestCLIDocsAreCurrent`" + ` in cmd/agenttool-collab-mcp from real runs (ids, hashes, times and
paths normalised); regenerate with ` + "`go generate ./cmd/agenttool-collab-mcp`" + `.

` + "`collab`" + ` is the short name for people of the one binary, ` + "`agenttool-collab-mcp`" + `: the npm package installs
both (` + "`bin/collab.js`" + ` runs the same binary under the short name), and ` + "`go install ./cmd/...`" + ` installs a ` + "`collab`" + `
binary beside the server. Run as ` + "`collab`" + ` without arguments at a terminal it prints these commands; run as
` + "`agenttool-collab-mcp`" + ` without arguments, or as ` + "`collab`" + ` with its input a pipe (as a host starts a server), it serves MCP on stdio.
Every subcommand answers under both names.

Conventions: every command has ` + "`-h`" + ` (exit 0) and ` + "`--json`" + `; output is plain text when stdout is not a terminal;
colour appears only on a terminal and never with ` + "`NO_COLOR`" + `. The database is ` + "`--db FILE`" + `, else the one the
server would open (` + "`AGENTOOL_COLLAB_DB`" + `, else the default path); the workspace is ` + "`--workspace W`" + ` (its name,
its id or a prefix of it, or any directory inside the repository or one of its worktrees), else the one whose
repository holds ` + "`--root DIR`" + ` (default: the current directory), else the only one there is. The read commands
open the database read-only and never create or migrate it. With ` + "`--json`" + ` a refusal is one object on stdout too,
` + "`{\"error\": ..., \"code\": ..., \"fix\": ...}`" + ` (` + "`code`" + ` is the refusal code when the journal refused), and the exit
status is the same as without it. The examples below read a journal kept by
` + "`collab demo --keep`" + ` and pass ` + "`--db`" + ` (not shown).

Sessions are named the way a person thinks of them. Wherever a command takes a session ` + "`NAME`" + ` (` + "`post --to`" + `,
` + "`reports --to`" + `, ` + "`tail --session`" + `, ` + "`sessions NAME`" + `) it may be the actor label of the one live session bearing
it (` + "`ben`" + `, exactly or ignoring case), a short id as the listings print it (` + "`session_1a2b3c4d`" + `, or just
` + "`1a2b3c4d`" + `; at least four hex digits), or a whole id. A name that is unknown, or that several sessions answer to,
is refused (exit 1, ` + "`session_not_found`" + `) with every candidate on a line of its own (label, whether it ended, last
seen, short id) before anything is written; a workspace name is refused the same way (exit 2). Output names
sessions by label (` + "`pat → ben`" + `), adds the short id where two sessions share a label, and shows whole ids with
` + "`--ids`" + `; ` + "`--json`" + ` keeps the ids and adds the labels (` + "`to_actor`" + `). The MCP tools keep taking ids.

Text that agents wrote (actor labels, titles, report bodies, summaries, paths) is printed with its control
characters escaped, on a terminal or not: C0 controls such as ESC and BEL, DEL, the C1 controls U+0080–U+009F, the
bidirectional overrides and isolates, and U+2028/U+2029 show as ` + "`\\x1b`" + `, ` + "`\\u009b`" + ` and so on
(` + "`hosts/termtext`" + `), so nothing in a journal can retitle, clear or move about the person's terminal or write its
clipboard. Report bodies, handoff summaries and decisions keep their line breaks and tabs; every other field stays on
one line. ` + "`--json`" + ` prints the exact JSON instead.

A person acts through a credential-bound session of their own, started by the first action (named by ` + "`--as`" + `,
else ` + "`$COLLAB_PERSON`" + `, else ` + "`person:<login>`" + `) and resumed by every later one, which moves it to a new generation.
Its credential is kept in ` + "`$XDG_STATE_HOME/agenttool/collab-person/`" + ` (else ` + "`~/.local/state/...`" + `), mode 0600 in a
0700 directory, one per database and workspace. Actions go through the same MCP handlers and store rules as any
agent's calls: a session cannot review its own reported completion, a stale version is refused, and so on.

`

const docsFooter = `## Sessions that end

` + "`status`" + `, ` + "`sessions`" + ` and the web view's sessions page show each credential-bound session as **active**,
**stale** or **ended**, with the reason and the host that holds it. This is a reading for people, derived from
what is stored (package ` + "`core/liveness`" + `); the MCP tools answer from the session rows as they always did, where a
session is active until ` + "`collab_session_end`" + `.

- **ended**: the session was ended (` + "`collab_session_end`" + `, ` + "`logout`" + `); or its holding process is known to have
  exited and it holds no lease, live or expired; or its holder cannot be watched, it holds no lease and it was
  last seen more than 24 hours ago.
- **active**: its holding process is known to run, or its lease time has not passed. The lease time is the latest
  expiry of the task leases it holds and, when its holder cannot be watched, 15 minutes after it was last seen
  (the default task lease).
- **stale**: neither: the holder is not known to run and the lease time has passed, but the session still holds
  expired leases (tasks waiting for ` + "`collab_task_recover`" + `), or its unwatched holder was seen within 24 hours.

A holding process is watched only where that is knowable: an MCP server on stdio records its process id, start
time and boot on this machine when it starts or resumes a session, and the id is checked with signal 0 (and, on
Linux, against the start time, so a reused id reads as exited). A person's commands, HTTP clients and sessions of
another machine are judged by lease and last-seen time alone. The host is what the session's holder said of
itself: the MCP client's ` + "`initialize`" + ` name and version, the HTTP token's name, ` + "`collab`" + ` for a person at the
terminal; ` + "`host not recorded`" + ` for a session started before hosts were recorded. The record lives in the
` + "`session_hosts`" + ` table beside the journal (outside the hash chain; the reference ignores it).

## Exit codes

| code | meaning |
|---|---|
| 0 | done |
| 1 | refused by the store (the message names the code and the fix), a journal that does not verify, a demo step that misbehaved |
| 2 | usage error (unknown flag, missing argument), or nothing to work on: no database, one that needs migration, an unknown workspace |
`
