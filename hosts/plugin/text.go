package plugin

// Texts the manifests and marketplaces show people browsing plugins.
const (
	// Description is the one-paragraph summary used by every manifest.
	Description = "Local-first coordination journal for coding-agent sessions on one machine: " +
		"credential-bound sessions, advisory task leases, structured reports, reviews and handoffs, " +
		"kept in one hash-chained SQLite file that every host shares."
	// ShortDescription fits the one-line slots of plugin browsers.
	ShortDescription = "Coordinate coding agents through one local journal"
	// MarketplaceDescription describes the marketplace that lists the plugin.
	MarketplaceDescription = "The agenttool collab plugin for Claude Code and Codex."
)

// Keywords returns the search keywords every manifest lists.
func Keywords() []string {
	return []string{"mcp", "coordination", "multi-agent", "task-leases", "journal"}
}
