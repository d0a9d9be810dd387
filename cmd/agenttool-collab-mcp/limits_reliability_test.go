//go:build linux

package main

import (
	"fmt"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// fileSizeLimitEnv caps, in bytes, the size of every file a server process
// writes (RLIMIT_FSIZE): a write past the cap fails with EFBIG, so a
// growing database or WAL hits the wall exactly as on a full disk, without
// needing a small filesystem or privileges.
const fileSizeLimitEnv = "COLLAB_TEST_FILE_SIZE_LIMIT"

// init applies the cap in server processes only, before anything runs.
// The Go runtime ignores SIGXFSZ, so the write fails instead of the
// process dying.
func init() {
	if os.Getenv(serveEnv) != "1" {
		return
	}
	raw := os.Getenv(fileSizeLimitEnv)
	if raw == "" {
		return
	}
	n, err := strconv.ParseUint(raw, 10, 64)
	if err == nil {
		err = unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: n, Max: n})
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "test harness: cannot apply %s=%q: %v\n", fileSizeLimitEnv, raw, err)
		os.Exit(3)
	}
}
