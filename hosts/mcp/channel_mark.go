package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/journal"
)

// channelMark is the last position a channel follower notified for a
// session, so that a follower started again (a new server process
// resuming the session, or a rebind) goes on from there: nothing notified
// twice, nothing committed meanwhile skipped.
type channelMark struct {
	SessionID string `json:"session_id"`
	EpochID   string `json:"epoch_id"`
	Sequence  int64  `json:"sequence"`
}

// markPath is the mark file of a credential file: beside it, in the
// private credential directory, named after the session.
func markPath(credentialPath string) string {
	return strings.TrimSuffix(credentialPath, ".json") + ".channel"
}

// startAfter is where a follower starts: the mark when it is this
// session's, in the head's epoch and not past the head; else the head.
func startAfter(path, sessionID string, head journal.Anchor) int64 {
	data, err := os.ReadFile(path)
	if err != nil {
		return head.Sequence
	}
	var m channelMark
	if json.Unmarshal(data, &m) != nil || m.SessionID != sessionID || m.EpochID != head.EpochID ||
		m.Sequence < 0 || m.Sequence > head.Sequence {
		return head.Sequence
	}
	return m.Sequence
}

// writeMark replaces the mark atomically (a private temporary file
// renamed over it). A failure is ignored: the mark only saves repeats
// after a restart.
func writeMark(path string, m channelMark) {
	data, err := json.Marshal(m)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

// removeMark deletes the mark of an ended session.
func removeMark(path string) { os.Remove(path) }
