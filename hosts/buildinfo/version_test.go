package buildinfo

import (
	"runtime/debug"
	"testing"
)

func TestBuildVersionFromToolchainInformation(t *testing.T) {
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	rev := "cb498b7aaccafd271549cb9967403066cf1a6431"
	cases := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "0.0.0-dev"},
		{"go install module@v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "1.2.3"},
		{"checkout stamped with a pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261129223945-cb498b7aacca+dirty"}}, "0.0.0-20261129223945-cb498b7aacca+dirty"},
		{"devel with a clean revision", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-29T22:39:45Z", "vcs.modified", "false")}, "0.0.0-20261129223945-cb498b7aacca"},
		{"devel with local changes", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev, "vcs.time", "2026-11-29T22:39:45Z", "vcs.modified", "true")}, "0.0.0-20261129223945-cb498b7aacca+dirty"},
		{"devel without a time", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("vcs.revision", rev)}, "0.0.0-cb498b7aacca"},
		{"devel built with -buildvcs=false", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "0.0.0-dev"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := fromBuildInfo(c.info); got != c.want {
				t.Errorf("fromBuildInfo = %q, want %q", got, c.want)
			}
		})
	}
}
