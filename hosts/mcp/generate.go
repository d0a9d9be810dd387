package mcp

// The files generated from this package's tool definitions: docs/tools.md,
// docs/tool-profiles.md and the per-tool snapshots in testdata/tools. Each
// has a test that fails when the file is stale; with -update the same
// tests rewrite them (see core/golden).
//go:generate go test -count=1 -run "^(TestToolTableIsCurrent|TestToolProfilesAreMeasuredAndDocumented|TestToolSnapshotsAreCurrent)" . -args -update
