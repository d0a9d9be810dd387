// Package e2e holds the end-to-end test of the host adapters: it installs
// the packed plugin root into real Claude Code and Codex CLIs (from npm),
// points each at a loopback mock of its model API, and checks that the
// model sees the collab tools under short names and that a tool call
// reaches the server and the shared journal. It runs only with
// COLLAB_HOSTS_E2E=1 (see hosts/e2e.sh) and skips when the CLIs cannot be
// installed.
package e2e
