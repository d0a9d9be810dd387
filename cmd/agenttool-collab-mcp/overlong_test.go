package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/mcp/stdio"
)

// TestAnOverLongLineIsSkippedWithBoundedMemory sends one line of ten
// times the frame cap and requires an error answer, a served request
// after it, and a peak resident size that grew by at most twice the cap.
func TestAnOverLongLineIsSkippedWithBoundedMemory(t *testing.T) {
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc to read the server's peak memory")
	}
	s := newSandbox(t)
	cmd := exec.Command(os.Args[0])
	cmd.Env = s.env()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	out := bufio.NewReader(stdout)
	answer := func(want string) string {
		t.Helper()
		for {
			line, err := out.ReadString('\n')
			if err != nil {
				t.Fatalf("server stopped before answering %s: %v", want, err)
			}
			if strings.Contains(line, want) {
				return line
			}
		}
	}
	fmt.Fprintln(stdin, initializeLine)
	answer(`"id":"init"`)
	before := peakRSS(t, cmd.Process.Pid)

	const limit = stdio.DefaultMaxLineBytes
	chunk := bytes.Repeat([]byte("x"), 1<<20)
	stdin.Write([]byte(`{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"`))
	for range 10 * limit / len(chunk) {
		if _, err := stdin.Write(chunk); err != nil {
			t.Fatal(err)
		}
	}
	fmt.Fprintln(stdin, `"}}`)
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	if got := answer(`"id":null`); !strings.Contains(got, `"code":-32600`) {
		t.Fatalf("over-long line answered %s", got)
	}
	answer(`"id":"after"`)
	grown := peakRSS(t, cmd.Process.Pid) - before
	t.Logf("peak resident size grew by %.1f MiB for a %d MiB line (cap %d MiB)", float64(grown)/(1<<20), 10*limit>>20, limit>>20)
	if grown > 2*limit {
		t.Fatalf("peak resident size grew by %d bytes, more than twice the %d-byte cap", grown, limit)
	}
}

// peakRSS reads a process's peak resident set size (VmHWM) in bytes.
func peakRSS(t *testing.T, pid int) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc status")
	return 0
}
