//go:build linux

package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// markEnv names the variable that tags one server process so the test can
// find its pid in /proc (mcptest does not expose it) and kill it at any
// moment, even before the MCP handshake has finished.
const markEnv = "COLLAB_TEST_MARK"

// childWithMark returns the pid of a child of this process whose
// environment holds markEnv=mark, or 0 when there is none (yet).
func childWithMark(mark string) int {
	want := []byte(markEnv + "=" + mark + "\x00")
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || parentOf(pid) != os.Getpid() {
			continue
		}
		env, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err == nil && bytes.Contains(env, want) {
			return pid
		}
	}
	return 0
}

// parentOf reads a process's parent pid from /proc/<pid>/stat.
func parentOf(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return -1
	}
	// The command name is parenthesised and may hold spaces; fields
	// after its closing parenthesis are: state, ppid, ...
	rest := string(b[bytes.LastIndexByte(b, ')')+1:])
	fields := strings.Fields(rest)
	if len(fields) < 2 {
		return -1
	}
	ppid, _ := strconv.Atoi(fields[1])
	return ppid
}

// killMarkedAfter sends SIGKILL to the marked child once delay has passed
// after armed is closed (waiting for the child to appear if it has not
// yet), unless ctx ends first. It reports whether a kill was sent. The
// child is never reaped here, so its pid cannot be reused before the kill
// lands.
func killMarkedAfter(ctx context.Context, mark string, armed <-chan struct{}, delay time.Duration) bool {
	select {
	case <-ctx.Done():
		return false
	case <-armed:
	}
	select {
	case <-ctx.Done():
		return false
	case <-time.After(delay):
	}
	for {
		if pid := childWithMark(mark); pid > 0 {
			return syscall.Kill(pid, syscall.SIGKILL) == nil
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Millisecond):
		}
	}
}
