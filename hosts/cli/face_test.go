package cli

import (
	"os/exec"
	"strings"
	"testing"
)

// TestPeoplesCommandsDoNotGoThroughTheMCPFace checks that nothing hosts/cli
// builds on, directly or not, is the MCP face or an MCP client: a person's
// command acts through core/seat and the store.
func TestPeoplesCommandsDoNotGoThroughTheMCPFace(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list the imports with")
	}
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, face := range []string{"/hosts/mcp", "/hosts/mcpclient", "/hosts/httpserve", "github.com/modelcontextprotocol/"} {
			if strings.Contains(dep, face) {
				t.Errorf("hosts/cli depends on %s", dep)
			}
		}
	}
}
