#!/bin/sh
# End-to-end check of the host adapters (issue 8), run by .ci/run.
#
# Installs Claude Code and Codex from npm into a cache folder (reused on
# later runs; COLLAB_E2E_CACHE moves it), packs the plugin root from
# npm/files.txt with this machine's binary, installs it through each host's
# marketplace commands into a temporary HOME, and drives both hosts against
# loopback mock model APIs. It also runs the from-source path
# (TestFromSourceEndToEnd): build, `host stage DIR`, install DIR as a local
# marketplace in both hosts, rebuild, restage and refresh. Skips with a
# message when the CLIs cannot be installed. Extra arguments go to `go test`.
set -eu
cd "$(dirname "$0")/.."
COLLAB_HOSTS_E2E=1 exec go test ./hosts/e2e -count=1 -v -timeout 40m "$@"
