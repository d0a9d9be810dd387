package place

// The environment variables collab reads. Each is listed, with its rule, in
// Variables (and so in docs/paths.md).
const (
	// EnvPrefix starts the name of every variable of collab's own.
	EnvPrefix = "AGENTOOL_COLLAB_"

	EnvDB                  = "AGENTOOL_COLLAB_DB"
	EnvSessionFile         = "AGENTOOL_COLLAB_SESSION_FILE"
	EnvAllowCursorRecovery = "AGENTOOL_COLLAB_ALLOW_CURSOR_RECOVERY"
	EnvAnchorLedger        = "AGENTOOL_COLLAB_ANCHOR_LEDGER"
	EnvSynchronous         = "AGENTOOL_COLLAB_SYNCHRONOUS"
	EnvTools               = "AGENTOOL_COLLAB_TOOLS"
	EnvChannel             = "AGENTOOL_COLLAB_CHANNEL"
	EnvPprof               = "AGENTOOL_COLLAB_PPROF"
	EnvHost                = "AGENTOOL_COLLAB_HOST"
	EnvGuard               = "AGENTOOL_COLLAB_GUARD"
	EnvGuardTimeout        = "AGENTOOL_COLLAB_GUARD_TIMEOUT"
	EnvWebToken            = "AGENTOOL_COLLAB_WEB_TOKEN"
	EnvLocalDir            = "AGENTOOL_COLLAB_LOCAL_DIR"

	EnvXDGData     = "XDG_DATA_HOME"
	EnvXDGState    = "XDG_STATE_HOME"
	EnvHome        = "HOME"
	EnvUserProfile = "USERPROFILE"
	EnvPerson      = "COLLAB_PERSON"
	EnvNoColor     = "NO_COLOR"
)

// Variable documents one environment variable: who reads it and the rule.
type Variable struct {
	Name string
	// ReadBy names the commands or parts that read it.
	ReadBy string
	// Rule says how its value is used, including unset and empty values.
	Rule string
}

// Variables lists every environment variable collab reads, in the order
// docs/paths.md shows them. ServerVariables is the subset a host must
// forward to the MCP server.
var Variables = []Variable{
	{EnvDB, "server, CLI, doctor, setup, guard, web, token",
		"Database file. Used when set at all, even empty (an empty value names the working directory, which the server then refuses as unsafe). `:memory:` selects a private in-memory database. A relative value is resolved against the working directory when the database is opened."},
	{EnvXDGData, "database and anchor ledger defaults",
		"When set and non-empty: the database defaults to `$XDG_DATA_HOME/agenttool/collab.sqlite` (a relative value resolved against the working directory) and the anchor ledger to `$XDG_DATA_HOME/agenttool/collab-zerone-anchors.json` (a relative value kept relative)."},
	{EnvHome, "database default (not on Windows), anchor ledger default (every OS)",
		"Else the database defaults to `~/.local/share/agenttool/collab.sqlite` on every OS (no platform-native data folder, so every implementation finds the same file). The anchor ledger reads `HOME` itself on every OS and, when it is unset or empty, uses the literal relative folder `undefined`."},
	{EnvUserProfile, "database default on Windows",
		"The home directory on Windows, where `HOME` is not consulted for the database default."},
	{EnvLocalDir, "every process, for a PostgreSQL journal only",
		"When non-empty and the database is a PostgreSQL URL: the folder for the files a SQLite journal keeps beside its file (credential files, tokens, the resume folder, the search index), instead of `<data home>/agenttool/postgres/<server>-<hash>/`; a relative value is resolved against the working directory. Every process of one journal on one machine must see the same value."},
	{EnvSessionFile, "server start, guard, peek/watch",
		"When non-empty: the credential file of a session to resume at startup."},
	{EnvAllowCursorRecovery, "server start",
		"Exactly `1` lets the startup resume enter cursor recovery; any other value does not."},
	{EnvAnchorLedger, "collab_anchor_status, web",
		"When non-empty: the anchor ledger path, used verbatim (never resolved)."},
	{EnvSynchronous, "server",
		"SQLite's commit durability: `normal` (the default, also when unset or empty) or `full`, in lower or upper case; any other value stops the server."},
	{EnvTools, "server",
		"Tool profile: `all` (default), `core`, or a comma list of tool names."},
	{EnvChannel, "server (set by the Claude Code plugin's server entry)",
		"`1`, `true` or `on` declares Claude Code's `claude/channel` capability and pushes one notice per event that concerns the bound session; `0`, `false`, `off` or unset leaves it off; any other value stops the server."},
	{EnvPprof, "every process of the binary",
		"Off unless non-empty: a path prefix; the process writes `PREFIX.PID.cpu.pprof` and, on a normal exit, `PREFIX.PID.alloc.pprof`. For measuring only (see `docs/performance.md`)."},
	{EnvHost, "set by host entries; read by doctor",
		"The name of the host that started the server."},
	{EnvGuard, "guard hook",
		"`off` skips the check."},
	{EnvGuardTimeout, "guard hook",
		"The check's time budget as a Go duration (e.g. `2s`); an unparsable value keeps the default."},
	{EnvWebToken, "web",
		"The access token the web view requires; required beyond loopback."},
	{EnvXDGState, "CLI person commands",
		"When non-empty: a person's own session credentials live under `$XDG_STATE_HOME/agenttool/collab-person/`, else under `~/.local/state/agenttool/collab-person/`."},
	{EnvPerson, "CLI person commands",
		"The person's actor name when `--as` is not given; else `person:<login>`."},
	{EnvNoColor, "CLI",
		"When non-empty: no colour, even on a terminal."},
}

// ServerVariables returns the variables the MCP server reads, in the order
// host manifests list them. A host that does not forward one of them can
// open a different journal than the user's shell.
func ServerVariables() []string {
	return []string{EnvDB, EnvXDGData, EnvSessionFile, EnvAllowCursorRecovery, EnvAnchorLedger, EnvSynchronous, EnvTools}
}
