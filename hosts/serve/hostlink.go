package serve

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/agenttool/collab/core/hostlink"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/hosts/claude"
	"github.com/agenttool/collab/hosts/mcp"
)

// linkWriter keeps the host link of the session a stdio server binds: it
// writes the record when a session is bound, removes it when the session
// ends or the server exits, and does nothing where the host process cannot
// be identified. A failure to write is reported once on stderr (it only
// costs the hooks their wake-up) and never names a path.
type linkWriter struct {
	proc         *mcp.Process
	dir          string
	self, host   hostlink.Proc
	conversation string
	cwd          string
	diag         io.Writer
	session      string
}

// newLinkWriter returns nil when this server cannot record a link: an
// in-memory database, or processes that cannot be identified.
func newLinkWriter(db string, diag io.Writer) *linkWriter {
	b, err := place.BesideDatabase(db)
	if err != nil {
		return nil
	}
	self, ok1 := hostlink.Identify(os.Getpid())
	host, ok2 := hostlink.HostOf(os.Getpid())
	if !ok1 || !ok2 {
		return nil
	}
	cwd, _ := os.Getwd()
	return &linkWriter{dir: b.HostLinkDir(), self: self, host: host,
		conversation: os.Getenv(claude.ConversationVariable), cwd: cwd, diag: diag}
}

// bound records the link of the session just bound (OnBind).
func (l *linkWriter) bound(sessionID string) {
	if l == nil || l.proc == nil {
		return
	}
	file, err := filepath.Abs(l.proc.CredentialFile())
	if err != nil {
		return
	}
	err = hostlink.Write(l.dir, hostlink.Record{SessionID: sessionID, CredentialFile: file, Host: l.host,
		Server: l.self, Conversation: l.conversation, Cwd: l.cwd, Written: time.Now().UTC()})
	if err != nil {
		fmt.Fprintf(l.diag, "· hooks cannot find this session: %v\n", err)
		return
	}
	l.session = sessionID
}

// unbound removes the link of the session just ended (OnUnbind).
func (l *linkWriter) unbound(sessionID string) {
	if l == nil {
		return
	}
	hostlink.Remove(l.dir, sessionID, l.self)
	if l.session == sessionID {
		l.session = ""
	}
}

// close removes the link of a session still bound when the server exits:
// the session stays resumable from its credential file, but no hook of this
// host should announce it with no server to answer collab_next.
func (l *linkWriter) close() {
	if l != nil && l.session != "" {
		hostlink.Remove(l.dir, l.session, l.self)
	}
}
