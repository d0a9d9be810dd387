package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agenttool/collab/hosts/doctor"
)

// runDoctor implements `agenttool-collab-mcp doctor [--json] [--plugin-root DIR]`.
// It exits 0 when nothing needs doing, 1 when a check found a problem and
// 2 on a usage error.
func runDoctor(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("doctor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	root := fs.String("plugin-root", "", "check this plugin root instead of the one the binary is in")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if err == nil {
			fmt.Fprintf(stderr, "doctor: unexpected argument %q\n", fs.Arg(0))
		}
		return 2
	}
	report := doctor.Run(ctx, doctorInputs(*root))
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			fmt.Fprintf(stderr, "doctor: %v\n", err)
			return 1
		}
	} else if err := report.WriteText(stdout); err != nil {
		fmt.Fprintf(stderr, "doctor: %v\n", err)
		return 1
	}
	if report.ActionNeeded() {
		return 1
	}
	return 0
}

// doctorInputs reads what the checks need from the real process.
func doctorInputs(root string) doctor.Inputs {
	in := doctor.Inputs{Env: environ(), Version: appVersion(), PluginRoot: root, OS: runtime.GOOS, Arch: runtime.GOARCH}
	in.Cwd, _ = os.Getwd()
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		in.Executable = exe
	}
	return in
}

// environ returns the process environment as a map.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && k != "" {
			env[k] = v
		}
	}
	return env
}
