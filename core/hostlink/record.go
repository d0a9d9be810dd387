package hostlink

import (
	"encoding/json"
	"time"
)

// Format identifies a link record.
const Format = "agenttool.collab/host-link/1"

// Suffix ends the file name of every link record: <session_id>.link.
const Suffix = ".link"

// Record is what a server writes when it binds a session: who it serves
// and where that session's credential lives. It holds no token.
type Record struct {
	Format    string `json:"format"`
	SessionID string `json:"session_id"`
	// CredentialFile is the absolute path of the session's credential
	// file; it is never shown to anyone.
	CredentialFile string `json:"credential_file"`
	// Host is the process the server serves (HostOf the server).
	Host Proc `json:"host"`
	// Server is the server process itself.
	Server Proc `json:"server"`
	// Conversation is the host's conversation id from the server's
	// environment, "" when the host passes none.
	Conversation string `json:"conversation_id,omitempty"`
	// Cwd is the server's working directory, for a person reading it.
	Cwd     string    `json:"cwd,omitempty"`
	Written time.Time `json:"written_at"`
}

// valid reports whether r has everything matching needs.
func (r Record) valid() bool {
	return r.Format == Format && r.SessionID != "" && r.CredentialFile != "" &&
		r.Host.PID > 0 && r.Host.Boot != "" && r.Server.PID > 0 && r.Server.Boot != ""
}

func decodeRecord(data []byte) (Record, bool) {
	var r Record
	if json.Unmarshal(data, &r) != nil || !r.valid() {
		return Record{}, false
	}
	return r, true
}
