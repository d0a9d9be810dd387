package stage

import (
	"debug/buildinfo"
	"fmt"
	"os"
	"strings"

	"github.com/agenttool/collab/release/internal/notices"
	"github.com/agenttool/collab/release/internal/target"
)

// checkBinary refuses a binary whose embedded build settings say it was not
// built for t as a static, trimmed release build, or that contains a module
// the notices file does not cover. (A -trimpath build does not record its
// ldflags, so the stamped version is checked by running the host binary in
// `release verify` instead.)
func checkBinary(path string, t target.Target, listed []string) error {
	info, err := buildinfo.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	want := map[string]string{
		"GOOS":        t.GOOS,
		"GOARCH":      t.GOARCH,
		"CGO_ENABLED": "0",
		"-trimpath":   "true",
	}
	got := map[string]string{}
	for _, s := range info.Settings {
		got[s.Key] = s.Value
	}
	for k, v := range want {
		if got[k] != v {
			return fmt.Errorf("%s: built with %s=%q, want %q", path, k, got[k], v)
		}
	}
	inBinary, err := notices.InBinary(path)
	if err != nil {
		return err
	}
	if missing := notices.Missing(listed, inBinary); len(missing) > 0 {
		return fmt.Errorf("%s contains modules missing from THIRD_PARTY_NOTICES.md (run `cd release && go run ./cmd/release notices -w`): %s",
			path, strings.Join(missing, ", "))
	}
	return nil
}

func readListed(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read notices: %w", err)
	}
	return notices.Listed(data), nil
}
