// Package buildinfo is the version the binary reports: the release stamp
// GoReleaser writes into package main, else what the Go toolchain recorded.
package buildinfo

import (
	"runtime/debug"
	"strings"
)

// Version is the version the binary reports: stamp, the release version
// set at build time (-ldflags "-X main.version=<semver>" on the command's
// package main), when there is one; else what the toolchain recorded about
// the build (see fromBuildInfo).
func Version(stamp string) string {
	if stamp != "" {
		return stamp
	}
	info, _ := debug.ReadBuildInfo()
	return fromBuildInfo(info)
}

// fromBuildInfo derives a version from the toolchain's build information:
// the module version for `go install module@version` (and for builds from a
// git checkout, which Go stamps with a pseudo-version), else
// 0.0.0-<commit time>-<12-digit revision>[+dirty] from the VCS settings,
// else 0.0.0-dev when the build recorded neither (e.g. -buildvcs=false).
// The leading "v" of Go versions is dropped, as release versions have none.
func fromBuildInfo(info *debug.BuildInfo) string {
	if info == nil {
		return "0.0.0-dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	var rev, when string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "0.0.0-dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "0.0.0-" + compactTime(when) + rev
	if dirty {
		v += "+dirty"
	}
	return v
}

// compactTime turns an RFC 3339 UTC time into yyyymmddhhmmss followed by a
// dash, the way Go pseudo-versions spell it; "" when there is no time.
func compactTime(rfc3339 string) string {
	var b strings.Builder
	for _, r := range rfc3339 {
		if r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
		if b.Len() == 14 {
			return b.String() + "-"
		}
	}
	return ""
}
