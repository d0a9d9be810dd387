#!/usr/bin/env bash
# Release checks for .ci/run (issue 7). Run from anywhere:
#
#   release/ci.sh             default: module tests, actionlint, a GoReleaser snapshot build,
#                             linux/amd64 rebuilt elsewhere and compared, stage + pack (twice),
#                             offline verify, npm install -g and npx from the tarball
#   release/ci.sh --release   also: all six targets rebuilt from scratch in a second directory
#                             (umask 077, empty GOCACHE) with both GoReleaser and go build, and
#                             compared byte for byte; prints the figures for the closing note
#
# Needs go, git, node and npm. The first run downloads the release module's dependencies and
# compiles GoReleaser (several minutes); later runs reuse the Go caches.
set -euo pipefail

mode=default
case "${1:-}" in
"") ;;
--release) mode=release ;;
*)
	echo "usage: release/ci.sh [--release]" >&2
	exit 2
	;;
esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
work=$(mktemp -d "${TMPDIR:-/tmp}/release-ci.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS
export npm_config_update_notifier=false npm_config_fund=false npm_config_audit=false
export npm_config_cache="$work/npm-cache"

step() { printf '\n== [%4ds] %s\n' $((SECONDS - start)) "$*"; }
fail() {
	echo "release/ci.sh: $*" >&2
	exit 1
}

# copy_tree SRC DST UMASK: the checkout's files (tracked and untracked, not ignored, no dist/)
# copied under the given umask, then committed in a fresh repository with the source's commit
# date, so GoReleaser sees a clean tree and the same commit timestamp in every copy.
copy_tree() {
	local src=$1 dst=$2 mask=$3 date
	(
		umask "$mask"
		mkdir -p "$dst"
		git -C "$src" ls-files -z --cached --others --exclude-standard |
			grep -zv '^dist/' |
			while IFS= read -r -d '' f; do [ -e "$src/$f" ] && printf '%s\0' "$f"; done |
			(cd "$src" && xargs -0 -r cp --parents -t "$dst")
		date=$(git -C "$src" log -1 --format=%cI 2>/dev/null || echo 2026-01-01T00:00:00Z)
		cd "$dst"
		git init -q
		git add -A
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
			git -c user.name=release-ci -c user.email=release-ci@localhost commit -qm snapshot
		git remote add origin https://github.com/agenttool/collab.git
	)
}

step "release module: vet and tests"
(cd "$here" && go vet ./... && go test ./...)

step "workflows: actionlint"
(cd "$root" && go tool -modfile="$here/go.mod" actionlint -no-color)

step "build the release tool and GoReleaser"
go -C "$here" build -o "$work/bin/release" ./cmd/release
go -C "$here" tool goreleaser --version >/dev/null
cp "$(go -C "$here" tool -n goreleaser)" "$work/bin/goreleaser"
rel=$work/bin/release

step "copy the checkout to $work/a (umask 022) and $work/b (umask 077)"
copy_tree "$root" "$work/a" 022
copy_tree "$root" "$work/b" 077

step "GoReleaser snapshot build, six targets, in a/"
t_build=$SECONDS
(cd "$work/a" && umask 022 && "$rel" build -snapshot -goreleaser "$work/bin/goreleaser") | tee "$work/build.txt"
t_build=$((SECONDS - t_build))
version=$(sed -n 's/^version //p' "$work/build.txt")
[ -n "$version" ] || fail "the snapshot build printed no version"

step "linux/amd64 rebuilt with go build in b/ (umask 077, its own GOCACHE) equals GoReleaser's"
cache_b=${RELEASE_CI_CACHE_B:-${XDG_CACHE_HOME:-$HOME/.cache}/agenttool-release-ci/gocache-b}
(cd "$work/b" && umask 077 && "$rel" gobuild -version "$version" -targets linux/amd64 -out "$work/b-bin" -gocache "$cache_b")
"$rel" compare -a "$work/a/dist" -b "$work/b-bin"

step "stage the npm package root and pack it once"
(cd "$work/a" && umask 022 && "$rel" stage-npm) | tee "$work/stage.txt"
tgz=$(sed -n 's/^packed *//p' "$work/stage.txt")
[ -f "$tgz" ] || fail "stage-npm reported no tarball"

step "pack the same staged root again: byte-identical tarball"
mkdir -p "$work/repack"
(cd "$work/a/dist/npm" && npm pack --silent --ignore-scripts --pack-destination "$work/repack" >/dev/null)
cmp "$tgz" "$work/repack/$(basename "$tgz")" || fail "two packs of one staged root differ"
echo "identical: $(sha256sum "$tgz" | cut -d' ' -f1)"

step "release verify, offline (a snapshot has no provenance)"
"$rel" verify -root "$work/a" -tag "v$version" -npm-tarball "$tgz" -release-dir "$work/a/dist/release"

step "npm install -g --ignore-scripts <tarball> into a temporary prefix"
npm install -g --ignore-scripts --prefix "$work/prefix" "$tgz" >/dev/null
got=$("$work/prefix/bin/agenttool-collab-mcp" --version)
[ "$got" = "agenttool-collab-mcp $version" ] || fail "installed binary printed '$got'"
echo "$got"

step "npx --yes <tarball> --version"
# npx runs an absolute path as a command; a ./relative path (or file:) is read as a package spec.
got=$(cd "$(dirname "$tgz")" && npx --yes "./$(basename "$tgz")" --version)
[ "$got" = "agenttool-collab-mcp $version" ] || fail "npx printed '$got'"
echo "$got"

if [ "$mode" = release ]; then
	step "six targets from scratch in b/: GoReleaser (umask 077, empty GOCACHE)"
	t_cold=$SECONDS
	(cd "$work/b" && umask 077 && GOCACHE="$work/gocache-cold" "$rel" build -snapshot -goreleaser "$work/bin/goreleaser")
	t_cold=$((SECONDS - t_cold))
	cmp "$work/a/dist/checksums.txt" "$work/b/dist/checksums.txt" || fail "archives differ between a/ and b/"
	echo "archives identical: $(sha256sum "$work/a/dist/checksums.txt" | cut -d' ' -f1) checksums.txt"
	"$rel" compare -a "$work/a/dist" -b "$work/b/dist"

	step "six targets with plain go build in b/ (umask 077, the same cold GOCACHE) equal GoReleaser's"
	(cd "$work/b" && umask 077 && "$rel" gobuild -version "$version" -out "$work/b-bin6" -gocache "$work/gocache-cold") >/dev/null
	"$rel" compare -a "$work/a/dist" -b "$work/b-bin6"

	step "stage and pack in b/ (umask 077): the same tarball as a/"
	(cd "$work/b" && umask 077 && "$rel" stage-npm) >/dev/null
	cmp "$tgz" "$work/b/dist/release/$(basename "$tgz")" || fail "tarballs staged in a/ and b/ differ"
	cmp "$work/a/dist/release/checksums.txt" "$work/b/dist/release/checksums.txt" || fail "release checksums differ"
	echo "identical: $(basename "$tgz") and checksums.txt"

	step "a tag build in b/ (GoReleaser release mode), staged and verified"
	git -C "$work/b" tag v0.0.0-ci.1
	(cd "$work/b" && umask 077 && "$rel" build -goreleaser "$work/bin/goreleaser" && "$rel" stage-npm) >/dev/null
	set -- "$work"/b/dist/release/*-0.0.0-ci.1.tgz
	"$rel" verify -root "$work/b" -tag v0.0.0-ci.1 -npm-tarball "$1" -release-dir "$work/b/dist/release"

	step "figures"
	echo "binaries (GoReleaser, a/):"
	grep -E '^(darwin|linux|windows)/' "$work/build.txt"
	echo "go: $(go version)   node: $(node --version)   npm: $(npm --version)"
	echo "snapshot build (GoReleaser, six targets, warm caches): ${t_build}s"
	echo "snapshot build (GoReleaser, six targets, empty GOCACHE): ${t_cold}s"
	stat -c '%12s  %n' "$work"/a/dist/release/*.tar.gz "$work"/a/dist/release/*.zip "$tgz"
	sed -n 's/^\(sha256\|size\|integrity\)/tarball \1/p' "$work/stage.txt"
fi

step "release/ci.sh $mode: all checks passed"
