package demo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/mcpclient"
)

// agent is one demo participant: its own server process and session.
type agent struct {
	name      string
	conn      *mcpclient.Conn
	sessionID string
}

// startAgent launches one server process on the demo database.
func startAgent(ctx context.Context, opts Options, name, db string) (*agent, error) {
	cmd := exec.CommandContext(ctx, opts.Server[0], opts.Server[1:]...)
	cmd.Env = append(serverEnv(), place.EnvDB+"="+db)
	cmd.Env = append(cmd.Env, opts.Env...)
	conn, err := mcpclient.Start(ctx, cmd, "collab-demo-"+name)
	if err != nil {
		return nil, fmt.Errorf("start agent %s: %w", name, err)
	}
	return &agent{name: name, conn: conn}, nil
}

// serverEnv is this process's environment minus everything that would
// point a demo server at the person's own database or session.
func serverEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, place.EnvPrefix) {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull)
}

// str reads a string at a dotted path of a result.
func str(m map[string]any, path string) string {
	v := dig(m, path)
	s, _ := v.(string)
	return s
}

// num reads a number at a dotted path of a result.
func num(m map[string]any, path string) int64 {
	f, _ := dig(m, path).(float64)
	return int64(f)
}

func dig(m map[string]any, path string) any {
	var cur any = m
	for _, key := range strings.Split(path, ".") {
		obj, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = obj[key]
	}
	return cur
}
