package normalize_test

import (
	"testing"

	"github.com/agenttool/collab/core/normalize"
)

func TestExpectedVersionMustBePositive(t *testing.T) {
	for _, v := range []int64{1, 2, 1 << 53} {
		if got, err := normalize.ExpectedVersion(v); err != nil || got != v {
			t.Errorf("ExpectedVersion(%d) = %d, %v", v, got, err)
		}
	}
	for _, v := range []int64{0, -1, -1 << 63} {
		_, err := normalize.ExpectedVersion(v)
		wantRefusal(t, err, "invalid_expected_version", "at least 1")
	}
}

func TestTTLDefaultsAndBounds(t *testing.T) {
	validators := []struct {
		name     string
		fn       func(*int64) (int64, error)
		fallback int64
		code     string
	}{
		{"lease", normalize.TTL, 900, "invalid_ttl"},
		{"presence", normalize.PresenceTTL, 120, "invalid_presence_ttl"},
	}
	for _, v := range validators {
		t.Run(v.name, func(t *testing.T) {
			if got, err := v.fn(nil); err != nil || got != v.fallback {
				t.Errorf("default = %d, %v; want %d", got, err, v.fallback)
			}
			for _, ok := range []int64{30, 31, 900, 3599, 3600} {
				if got, err := v.fn(&ok); err != nil || got != ok {
					t.Errorf("%d = %d, %v", ok, got, err)
				}
			}
			for _, bad := range []int64{-30, 0, 29, 3601, 1 << 40} {
				_, err := v.fn(&bad)
				wantRefusal(t, err, v.code, "30 to 3600")
			}
		})
	}
}
