package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/user"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/hosts/mcp"
	"github.com/agenttool/collab/hosts/mcpclient"
)

// A seat is a person's own credential-bound session on one workspace. It
// is an ordinary collab session: the person's commands go through the same
// MCP handlers, store rules, generation fencing and journal as any agent's
// calls, served in-process over an in-memory MCP transport. There is no
// other way in.
type seat struct {
	conn     *mcpclient.Conn
	st       *store.Store
	ws       store.Workspace
	credPath string
}

// seatPath is where the person's credential for database db and workspace
// ws lives (place.PersonCredential), a 0600 file in a 0700 directory.
func seatPath(db, ws string) (string, error) {
	path, err := place.PersonCredential(place.OS(), db, ws)
	if errors.Is(err, place.ErrNoHome) {
		return "", &problem{what: "cannot find your home directory for the session credential", fix: "set " + place.EnvXDGState, code: ExitUsage}
	}
	return path, err
}

// defaultActor names the person: --as, else $COLLAB_PERSON, else the login.
func defaultActor(as string) string {
	if as != "" {
		return as
	}
	if v := os.Getenv(place.EnvPerson); v != "" {
		return v
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "person:" + u.Username
	}
	return "person"
}

// takeSeat resumes the person's session on the selected workspace, or
// starts one (and keeps its credential in the state directory) on first use.
func takeSeat(ctx context.Context, c *common, actor string) (*seat, error) {
	v, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	ws, db := v.ws, v.path
	v.st.Close()
	credPath, err := seatPath(db, ws.ID)
	if err != nil {
		return nil, err
	}
	st, err := backend.Open(ctx, backend.Options{Path: db})
	if err != nil {
		return nil, fmt.Errorf("open %s to act: %w", place.Shown(db), err)
	}
	s := &seat{st: st, ws: ws, credPath: credPath}
	if _, err := os.Stat(credPath); errors.Is(err, os.ErrNotExist) {
		if err := s.start(ctx, actor); err != nil {
			st.Close()
			return nil, err
		}
	}
	if err := s.resume(ctx); err != nil {
		st.Close()
		return nil, err
	}
	return s, nil
}

// connect serves a fresh MCP process state over st in-process.
func (s *seat) connect(ctx context.Context, getenv func(string) string) (*mcpclient.Conn, *mcp.Process, error) {
	proc := mcp.NewProcess(mcp.ProcessConfig{Store: s.st, Getenv: getenv})
	return s.serve(ctx, proc)
}

func (s *seat) serve(ctx context.Context, proc *mcp.Process) (*mcpclient.Conn, *mcp.Process, error) {
	clientT, serverT := sdk.NewInMemoryTransports()
	serverConn, err := serverT.Connect(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("serve in-process: %w", err)
	}
	go proc.Dispatcher("cli").Serve(ctx, serverConn, nil)
	conn, err := mcpclient.Connect(ctx, clientT, "collab-cli")
	return conn, proc, err
}

// start begins the person's session with collab_session_start and moves
// its credential from beside the database into the state directory.
func (s *seat) start(ctx context.Context, actor string) error {
	conn, _, err := s.connect(ctx, nil)
	if err != nil {
		return err
	}
	defer conn.Close()
	out, err := conn.Call(ctx, "collab_session_start", map[string]any{"root_path": s.ws.RootPath, "actor": actor})
	if err != nil {
		return err
	}
	if out.Refused() {
		return refusal(out)
	}
	sess, _ := out.Data["session"].(map[string]any)
	id, _ := sess["id"].(string)
	original, err := credfile.PathFor(s.st.Path(), id)
	if err != nil {
		return err
	}
	cred, err := credfile.Read(original)
	if err != nil {
		return fmt.Errorf("read the new session's credential: %w", err)
	}
	if err := credfile.Write(s.credPath, cred, false); err != nil {
		return fmt.Errorf("keep the session credential in your state directory: %w", err)
	}
	return credfile.Remove(original)
}

// resume binds the person's session, moving it to a new generation.
func (s *seat) resume(ctx context.Context) error {
	getenv := func(k string) string {
		if k == place.EnvSessionFile {
			return s.credPath
		}
		return ""
	}
	proc := mcp.NewProcess(mcp.ProcessConfig{Store: s.st, Getenv: getenv})
	if _, err := proc.ResumeFromEnv(ctx); err != nil {
		return &problem{what: "your collab session could not be resumed: " + err.Error(),
			fix: "if it has ended, run `collab logout` to forget it; your next action starts a new one", code: ExitRefused}
	}
	conn, _, err := s.serve(ctx, proc)
	if err != nil {
		return err
	}
	s.conn = conn
	return nil
}

// call invokes a tool in the person's session; a refusal is an error.
func (s *seat) call(ctx context.Context, tool string, args map[string]any) (map[string]any, error) {
	if _, ok := args["workspace_id"]; !ok && tool != "collab_session_end" {
		args["workspace_id"] = s.ws.ID
	}
	out, err := s.conn.Call(ctx, tool, args)
	if err != nil {
		return nil, err
	}
	if out.Refused() {
		return out.Data, refusal(out)
	}
	return out.Data, nil
}

func (s *seat) close() {
	if s.conn != nil {
		s.conn.Close()
	}
	s.st.Close()
}

// refusal turns a store refusal into a problem with a fix where one is known.
func refusal(out mcpclient.Outcome) error {
	fix, ok := fixes[out.Code]
	if !ok {
		fix = "see docs/cli.md and the refusal code " + out.Code
	}
	return &problem{what: "refused (" + out.Code + "): " + out.Message, fix: fix, code: ExitRefused}
}

// fixes says what to do about the refusals a person meets most.
var fixes = map[string]string{
	"self_review_forbidden":   "a different session must review work your own session reported",
	"task_not_pending_review": "only a completion awaiting review can be reviewed; see `collab show TASK`",
	"version_conflict":        "someone changed it first; look again with `collab show TASK` and retry",
	"task_not_found":          "list tasks with `collab tasks`",
	"session_auth_failed":     "another process resumed your session; run the command again",
	"handoff_resolved":        "the handoff was already answered; see `collab tail --kind handoff`",
	"handoff_expired":         "the offer lapsed; ask the holder to offer again",
}
