package hermes

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/collaberr"
)

func sampleEntry() Entry {
	return Entry{
		Command: "/opt/agent tools/bin/linux-x64/agenttool-collab-mcp",
		Env: []Var{
			{"AGENTOOL_COLLAB_DB", "/home/me/.local/share/agenttool/collab.sqlite"},
			{"AGENTOOL_COLLAB_HOST", "hermes"},
		},
	}
}

func readFixture(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "config", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestSetServerKeepsTheRestOfTheFile(t *testing.T) {
	for _, name := range []string{"commented", "stale", "absent", "emptyflow", "crlf"} {
		t.Run(name, func(t *testing.T) {
			c := ParseConfig(readFixture(t, name+".in.yaml"))
			changed, err := c.SetServer("agenttool", sampleEntry())
			if err != nil {
				t.Fatal(err)
			}
			want := readFixture(t, name+".want.yaml")
			if !changed || !bytes.Equal(c.Bytes(), want) {
				t.Errorf("changed=%v; got:\n%s\nwant:\n%s", changed, c.Bytes(), want)
			}
		})
	}
}

func TestSetServerTwiceChangesNothing(t *testing.T) {
	for _, name := range []string{"commented", "stale", "absent", "emptyflow", "crlf"} {
		c := ParseConfig(readFixture(t, name+".want.yaml"))
		changed, err := c.SetServer("agenttool", sampleEntry())
		if err != nil || changed {
			t.Errorf("%s: changed=%v err=%v on an installed file", name, changed, err)
		}
	}
}

func TestSetServerRefusesFlowStyleServers(t *testing.T) {
	c := ParseConfig(readFixture(t, "flow.in.yaml"))
	_, err := c.SetServer("agenttool", sampleEntry())
	if ce, ok := collaberr.As(err); !ok || ce.Code != "hermes_config_unsupported" {
		t.Fatalf("got %v, want hermes_config_unsupported", err)
	}
	if !bytes.Equal(c.Bytes(), readFixture(t, "flow.in.yaml")) {
		t.Error("a refused edit changed the file")
	}
}

func TestRemoveServerRestoresTheOriginal(t *testing.T) {
	for _, name := range []string{"commented", "crlf"} {
		c := ParseConfig(readFixture(t, name+".want.yaml"))
		if !c.RemoveServer("agenttool") {
			t.Fatalf("%s: entry not found", name)
		}
		if want := readFixture(t, name+".in.yaml"); !bytes.Equal(c.Bytes(), want) {
			t.Errorf("%s: got:\n%s\nwant:\n%s", name, c.Bytes(), want)
		}
	}
}

func TestRemoveLastServerLeavesAnEmptyMapping(t *testing.T) {
	c := ParseConfig(readFixture(t, "emptyflow.want.yaml"))
	if !c.RemoveServer("agenttool") {
		t.Fatal("entry not found")
	}
	want := "mcp_servers: {}   # none yet\nskills:\n  enabled: true\n"
	if string(c.Bytes()) != want {
		t.Errorf("got:\n%s", c.Bytes())
	}
	if c.RemoveServer("agenttool") {
		t.Error("a second removal found the entry again")
	}
}

func TestServerReadsBackWrittenAndHandWrittenEntries(t *testing.T) {
	tests := []struct {
		file, name string
		want       Entry
	}{
		{"commented.want.yaml", "agenttool", sampleEntry()},
		{"stale.in.yaml", "agenttool", Entry{Command: "/old/path/agenttool-collab-mcp", Env: []Var{{"AGENTOOL_COLLAB_DB", "/old/collab.sqlite"}}}},
		{"commented.in.yaml", "github", Entry{Command: "npx", Env: []Var{{"GITHUB_PERSONAL_ACCESS_TOKEN", "${GITHUB_TOKEN}"}}}},
	}
	for _, tt := range tests {
		got, ok := ParseConfig(readFixture(t, tt.file)).Server(tt.name)
		if !ok || got.Command != tt.want.Command || len(got.Env) != len(tt.want.Env) {
			t.Errorf("%s/%s: got %+v ok=%v, want %+v", tt.file, tt.name, got, ok, tt.want)
			continue
		}
		for i := range got.Env {
			if got.Env[i] != tt.want.Env[i] {
				t.Errorf("%s/%s: env %d is %+v, want %+v", tt.file, tt.name, i, got.Env[i], tt.want.Env[i])
			}
		}
	}
	if _, ok := ParseConfig(readFixture(t, "absent.in.yaml")).Server("agenttool"); ok {
		t.Error("found an entry in a file without mcp_servers")
	}
}

func TestQuoteRoundTripsAwkwardPaths(t *testing.T) {
	for _, s := range []string{`C:\Users\me\collab.sqlite`, "/a b/#c: d", `say "hi"`, "tab\there", "ünïcode"} {
		if got := unquote(quote(s)); got != s {
			t.Errorf("%q came back as %q", s, got)
		}
	}
}
