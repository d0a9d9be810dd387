package launchers

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

func nodePlatform() string {
	arch := runtime.GOARCH
	if arch == "amd64" {
		arch = "x64"
	}
	return runtime.GOOS + "-" + arch
}

func TestNodeShimRunsTheBinaryAndPassesItsStatusBack(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fake binary is a shell script")
	}
	root := packageRoot(t, "launcher.js", "agenttool-collab-mcp.js", nodePlatform(), "agenttool-collab-mcp", 0o755)
	cmd := exec.Command(node, filepath.Join(root, "bin", "agenttool-collab-mcp.js"), "--version", "x y")
	cmd.Stdin = strings.NewReader("ping")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
		t.Fatalf("exit %v, want 7; stderr: %s", err, stderr.String())
	}
	out := stdout.String()
	if !strings.Contains(out, "args=--version x y\nping") {
		t.Errorf("stdout %q lacks the arguments and stdin", out)
	}
}

func TestNodeShimDiesOfTheBinarysSignal(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	if runtime.GOOS == "windows" {
		t.Skip("signals are POSIX")
	}
	root := packageRoot(t, "launcher.js", "agenttool-collab-mcp.js", nodePlatform(), "agenttool-collab-mcp", 0o755)
	exe := filepath.Join(root, "bin", nodePlatform(), "agenttool-collab-mcp")
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nkill -TERM $$\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = exec.Command(node, filepath.Join(root, "bin", "agenttool-collab-mcp.js")).Run()
	ee, ok := err.(*exec.ExitError)
	if !ok {
		t.Fatalf("exit %v, want death by SIGTERM", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("status %v, want killed by SIGTERM", ee)
	}
}

func TestNodeShimRefusesAMissingBinary(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed")
	}
	root := packageRoot(t, "launcher.js", "agenttool-collab-mcp.js", "plan9-x64", "agenttool-collab-mcp", 0o755)
	var stderr bytes.Buffer
	cmd := exec.Command(node, filepath.Join(root, "bin", "agenttool-collab-mcp.js"))
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(stderr.String(), "missing binary for "+nodePlatform()) {
		t.Errorf("exit %v stderr %q, want 1 and a missing-binary message", err, stderr.String())
	}
}
