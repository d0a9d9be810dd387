package version

import "testing"

func TestFromTagAcceptsOnlyVPrefixedSemver(t *testing.T) {
	tests := []struct {
		tag, want string
		ok        bool
	}{
		{"v1.2.3", "1.2.3", true},
		{"v0.1.0-rc.1", "0.1.0-rc.1", true},
		{"v0.0.1-snapshot", "0.0.1-snapshot", true},
		{"v1.2.3+build.7", "1.2.3+build.7", true},
		{"1.2.3", "", false},
		{"v1.2", "", false},
		{"v01.2.3", "", false},
		{"v1.2.3-", "", false},
		{"v1.2.3 ", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := FromTag(tt.tag)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("FromTag(%q) = %q, %v; want %q, ok=%v", tt.tag, got, err, tt.want, tt.ok)
		}
	}
}
