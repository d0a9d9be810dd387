#!/bin/sh
# Launcher for agenttool-collab-mcp inside the npm package / plugin root.
#
# Hosts start this file (Claude Code as ${CLAUDE_PLUGIN_ROOT}/bin/agenttool-collab-mcp,
# Codex as ./bin/agenttool-collab-mcp with cwd set to the plugin root). It finds the
# binary built for this machine under bin/<platform>-<arch>/ and replaces itself with
# it through exec, so no extra process sits between the host and the server and
# stdin/stdout stay a clean JSON-RPC stream. Diagnostics go to stderr only.
#
# The directory is taken from $0: call the launcher by its path, not through a
# symlink placed elsewhere.

name=agenttool-collab-mcp

fail() {
	echo "$name: $*" >&2
	exit 1
}

case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac

kernel=$(uname -s 2>/dev/null) || fail "cannot run uname to detect the operating system"
machine=$(uname -m 2>/dev/null) || fail "cannot run uname to detect the processor"

suffix=
case $kernel in
Linux) platform=linux ;;
Darwin) platform=darwin ;;
MINGW* | MSYS* | CYGWIN*)
	platform=win32
	suffix=.exe
	;;
*) fail "no build for operating system '$kernel' (supported: Linux, macOS, Windows)" ;;
esac

case $machine in
x86_64 | amd64) arch=x64 ;;
aarch64 | arm64 | armv8*) arch=arm64 ;;
*) fail "no build for processor '$machine' (supported: x86_64, arm64)" ;;
esac

# An x86_64 shell on Apple silicon runs under Rosetta; the native arm64 build is
# the better choice there.
if [ "$platform-$arch" = darwin-x64 ] &&
	[ "$(sysctl -in sysctl.proc_translated 2>/dev/null)" = 1 ]; then
	arch=arm64
fi

exe=$here/$platform-$arch/$name$suffix
[ -f "$exe" ] || fail "missing binary for $platform-$arch: $exe"

# Some unpackers drop the executable bit; restore it when the folder is writable.
if [ ! -x "$exe" ]; then
	chmod +x "$exe" 2>/dev/null || fail "binary is not executable and chmod failed: $exe"
fi

exec "$exe" "$@"
