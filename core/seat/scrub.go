package seat

import (
	"strings"

	"github.com/agenttool/collab/core/place"
)

// Scrub removes the store's credential directory and the bound session's
// token from text that is about to leave the process (a refusal message,
// a search snippet).
func (s *Seat) Scrub(text string) string {
	token := ""
	if s.bound != nil {
		token = s.bound.token
	}
	return ScrubFor(s.storePath(), token, text)
}

// ScrubFor removes the credential directory beside the database at
// databasePath and token (when set) from text, for a follower that holds
// a credential of its own.
func ScrubFor(databasePath, token, text string) string {
	if dir := CredentialDir(databasePath); dir != "" {
		text = strings.ReplaceAll(text, dir, "<credential-dir>")
	}
	if token != "" {
		text = strings.ReplaceAll(text, token, "<redacted>")
	}
	return text
}

// CredentialDir is the directory holding session credential files for
// the database at databasePath, "" when it has none (in memory, no path);
// it must never appear in any output.
func CredentialDir(databasePath string) string {
	if databasePath == "" {
		return ""
	}
	b, err := place.BesideDatabase(databasePath)
	if err != nil {
		return ""
	}
	return b.CredentialDir()
}

func (s *Seat) storePath() string {
	if s.store == nil {
		return ""
	}
	return s.store.Path()
}
