package main

// docs/cli.md is generated from real runs of this command by
// TestCLIDocsAreCurrent, which fails when the page is stale; with -update
// it rewrites the page (see core/golden).
//go:generate go test -count=1 -run "^TestCLIDocsAreCurrent" . -args -update
