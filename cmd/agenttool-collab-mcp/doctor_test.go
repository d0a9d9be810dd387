package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/hosts/plugin"
	"github.com/agenttool/collab/hosts/program"
)

func TestDoctorJSONReportsTheDatabaseAndExitsCleanly(t *testing.T) {
	home := t.TempDir()
	db := filepath.Join(home, "journal", "collab.sqlite")
	t.Setenv("HOME", home)
	t.Setenv("AGENTOOL_COLLAB_DB", db)
	t.Setenv("HERMES_HOME", "")
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	var out, errOut bytes.Buffer
	code := run(context.Background(), []string{"doctor", "--json"}, nil, &out, &errOut)
	var report struct {
		Database struct{ Path, Source string }
		Problems []string
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("not JSON (%v):\n%s\n%s", err, out.String(), errOut.String())
	}
	if code != 0 || report.Database.Path != db || report.Database.Source != "AGENTOOL_COLLAB_DB" || len(report.Problems) != 0 {
		t.Errorf("exit %d, report %+v", code, report)
	}
}

func TestDoctorExitsOneWhenActionIsNeeded(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AGENTOOL_COLLAB_DB", "relative.sqlite")
	var out bytes.Buffer
	if code := run(context.Background(), []string{"doctor"}, nil, &out, &bytes.Buffer{}); code != 1 {
		t.Errorf("exit %d for a relative database:\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "Action needed") {
		t.Errorf("the text report names no action:\n%s", out.String())
	}
}

func TestDoctorRejectsStrayArguments(t *testing.T) {
	if code := run(context.Background(), []string{"doctor", "extra"}, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
}

// Every variable the usage text documents must reach the server under
// Codex, which passes only what the manifest lists.
func TestDocumentedVariablesAreForwardedByCodex(t *testing.T) {
	var usage bytes.Buffer
	program.PrintUsage(&usage)
	_, env, ok := strings.Cut(usage.String(), "Environment:")
	if !ok {
		t.Fatal("the usage text has no Environment section")
	}
	forwarded := strings.Join(plugin.ServerEnv(), " ")
	found := 0
	for _, line := range strings.Split(env, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || !strings.HasPrefix(f[0], "AGENTOOL_") {
			continue
		}
		found++
		if !strings.Contains(" "+forwarded+" ", " "+f[0]+" ") {
			t.Errorf("%s is documented but missing from plugin.ServerEnv, so Codex would not pass it", f[0])
		}
	}
	if found == 0 {
		t.Error("no variables found in the usage text")
	}
}
