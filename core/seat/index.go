package seat

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/place"
)

// ResumeIndex maps (principal, instance) to a bound session id, so that a
// network client's incarnation gets its session back across connections:
// one small file per pair in place.Beside.ResumeDir, naming the session
// that pair last bound. The credential file itself stays where the
// session start wrote it, on the server; neither its path nor its token
// ever reaches the client.
type ResumeIndex struct{ dir string }

// NewResumeIndex returns the index beside the database at databasePath;
// an in-memory database has an index that remembers nothing.
func NewResumeIndex(databasePath string) (*ResumeIndex, error) {
	if databasePath == backend.MemoryPath {
		return &ResumeIndex{}, nil
	}
	b, err := place.BesideDatabase(databasePath)
	if err != nil {
		return nil, fmt.Errorf("place the resume index: %w", err)
	}
	return &ResumeIndex{dir: b.ResumeDir()}, nil
}

// file is the index entry of the pair; the name is a hash, so neither the
// client name nor the instance id needs to be a safe file name.
func (x *ResumeIndex) file(principal, instance string) string {
	sum := sha256.Sum256([]byte(principal + "\x00" + instance))
	return filepath.Join(x.dir, hex.EncodeToString(sum[:16]))
}

// Lookup returns the session the pair last bound, or "".
func (x *ResumeIndex) Lookup(principal, instance string) string {
	if x.dir == "" {
		return ""
	}
	raw, err := os.ReadFile(x.file(principal, instance))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(raw))
}

// Record remembers that the pair bound sessionID.
func (x *ResumeIndex) Record(principal, instance, sessionID string) error {
	if x.dir == "" {
		return nil
	}
	if err := os.MkdirAll(x.dir, 0o700); err != nil {
		return fmt.Errorf("create resume index: %w", err)
	}
	path := x.file(principal, instance)
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(sessionID+"\n"), 0o600); err != nil {
		return fmt.Errorf("write resume index: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("replace resume index: %w", err)
	}
	return nil
}

// Forget drops the pair's entry when it still names sessionID.
func (x *ResumeIndex) Forget(principal, instance, sessionID string) {
	if x.dir == "" || x.Lookup(principal, instance) != sessionID {
		return
	}
	if err := os.Remove(x.file(principal, instance)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return
	}
}
