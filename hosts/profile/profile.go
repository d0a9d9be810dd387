// Package profile writes CPU and allocation profiles of one run of the
// binary when the environment asks for them.
package profile

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"

	"github.com/agenttool/collab/core/place"
)

// Env names the environment variable that turns profiling on. Its
// value is a path prefix: the process writes PREFIX.PID.cpu.pprof while it
// runs and PREFIX.PID.alloc.pprof (every allocation since start, sampled
// as Go's runtime samples them) when it exits normally. Off when unset or
// empty; a diagnostic for people measuring the binary, never for hosts.
const Env = place.EnvPprof

// Run runs fn with the profiling Env asks for and returns fn's
// exit status; a prefix that cannot be written to ends the run with 1
// before fn starts.
func Run(getenv func(string) string, stderr io.Writer, fn func() int) int {
	p, err := startProfiling(getenv)
	if err != nil {
		fmt.Fprintf(stderr, "agenttool-collab-mcp: %v\n", err)
		return 1
	}
	code := fn()
	p.stop(stderr)
	return code
}

// profiling is what startProfiling opened; stop finishes and closes it.
type profiling struct {
	cpu       *os.File
	allocPath string
}

// startProfiling starts CPU profiling when Env names a prefix. It
// returns nil, nil when profiling is off. The process id in each file name
// keeps concurrent processes (a host's several servers, a benchmark's
// fresh process per run) from overwriting each other's profiles.
func startProfiling(getenv func(string) string) (*profiling, error) {
	prefix := getenv(Env)
	if prefix == "" {
		return nil, nil
	}
	base := prefix + "." + strconv.Itoa(os.Getpid())
	f, err := os.Create(base + ".cpu.pprof")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Env, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: start CPU profile: %w", Env, err)
	}
	return &profiling{cpu: f, allocPath: base + ".alloc.pprof"}, nil
}

// stop ends the CPU profile and writes the allocation profile. Failures go
// to stderr: a profile that cannot be written never changes the exit status.
func (p *profiling) stop(stderr io.Writer) {
	if p == nil {
		return
	}
	pprof.StopCPUProfile()
	if err := p.cpu.Close(); err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", Env, err)
	}
	runtime.GC() // the allocation profile is complete only after a collection
	f, err := os.Create(p.allocPath)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", Env, err)
		return
	}
	defer f.Close()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		fmt.Fprintf(stderr, "%s: allocation profile: %v\n", Env, err)
	}
}
