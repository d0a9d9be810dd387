package main

import (
	"bytes"
	"context"
	"testing"
)

// The committed notices must be what generation gives for the server as it
// is now; when the server gains a dependency this fails until someone runs
// `cd release && go run ./cmd/release notices -w`.
func TestThirdPartyNoticesAreCurrent(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"notices", "-root", "../../.."}, &stdout, &stderr); code != 0 {
		t.Fatalf("notices check exited %d: %s%s", code, stdout.String(), stderr.String())
	}
}
