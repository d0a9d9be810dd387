package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/mcp/mcptest"
)

// TestServersKeepTheirFilesWherePlaceSays starts a server with no
// AGENTOOL_COLLAB_DB (only HOME, or HOME and XDG_DATA_HOME), starts a
// session, and requires the database and the session's credential file
// exactly where core/place's rules put them. With COLLAB_REFERENCE_CMD set
// the reference runs the same cases, so the rules are checked against it
// rather than assumed.
func TestServersKeepTheirFilesWherePlaceSays(t *testing.T) {
	impls := []implementation{thisImplementation()}
	if os.Getenv(referenceEnv) != "" {
		impls = append(impls, referenceImplementation(t))
	} else {
		t.Logf("set %s to check the reference too", referenceEnv)
	}
	cases := []struct {
		name string
		vars func(root string) map[string]string
	}{
		{"home default", func(root string) map[string]string {
			return map[string]string{place.HomeVar(runtime.GOOS): filepath.Join(root, "home")}
		}},
		{"XDG_DATA_HOME", func(root string) map[string]string {
			return map[string]string{place.HomeVar(runtime.GOOS): filepath.Join(root, "home"), place.EnvXDGData: filepath.Join(root, "xdg")}
		}},
		{"XDG_DATA_HOME with a trailing separator", func(root string) map[string]string {
			return map[string]string{place.HomeVar(runtime.GOOS): filepath.Join(root, "home"), place.EnvXDGData: filepath.Join(root, "xdg") + string(filepath.Separator)}
		}},
	}
	for _, impl := range impls {
		for _, tc := range cases {
			t.Run(impl.name+"/"+tc.name, func(t *testing.T) {
				sb := newSandbox(t)
				repo := differentialRepo(sb)
				vars := tc.vars(sb.root)
				choice, err := place.Database(place.Map(runtime.GOOS, vars, sb.root))
				if err != nil {
					t.Fatal(err)
				}
				env := []string{serveEnv + "=1", "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=" + os.DevNull}
				for k, v := range vars {
					env = append(env, k+"="+v)
				}
				c, err := mcptest.Start(impl.argv, env)
				if err != nil {
					t.Fatalf("start: %v", err)
				}
				defer c.Close()
				r, err := c.Call("collab_session_start", map[string]any{"root_path": repo, "actor": "alice"})
				if err != nil || r.Code() != "" {
					t.Fatalf("collab_session_start: %v %v", err, r.Structured)
				}
				sess, _ := r.Structured["session"].(map[string]any)
				id, _ := sess["id"].(string)
				beside, err := place.BesideDatabase(choice.Path)
				if err != nil {
					t.Fatal(err)
				}
				for what, path := range map[string]string{"database": beside.Database(), "credential file": beside.CredentialFile(id)} {
					if _, err := os.Stat(path); err != nil {
						t.Errorf("%s: no %s where place puts it (%s): %v", impl.name, what, path, err)
					}
				}
			})
		}
	}
}
