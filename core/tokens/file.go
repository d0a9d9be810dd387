package tokens

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/agenttool/collab/core/credfile"
	"github.com/agenttool/collab/core/place"
)

// FileName is the token file's name, beside the database file
// (place.TokensFileName).
const FileName = place.TokensFileName

// Prefix starts every token, so a leaked one is recognisable in a scan.
const Prefix = "collab_"

// IsTokenShaped reports whether s has the shape of a token Add makes:
// Prefix followed by 32 random bytes in unpadded base64url, the shape of a
// session token (credfile.IsTokenShaped). It says nothing about whether
// the token file lists it.
func IsTokenShaped(s string) bool {
	secret, ok := strings.CutPrefix(s, Prefix)
	return ok && credfile.IsTokenShaped(secret)
}

// PathFor returns the token file of the database at databasePath
// (place.Beside.TokensFile).
func PathFor(databasePath string) (string, error) {
	b, err := place.BesideDatabase(databasePath)
	if err != nil {
		return "", err
	}
	return b.TokensFile(), nil
}

// Entry is one client's token as stored: its name and the hash, never the
// token.
type Entry struct {
	Name      string     `json:"name"`
	Hash      string     `json:"sha256"`
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt *time.Time `json:"expires_at,omitempty"`
}

// Expired reports whether the entry no longer admits anyone at now.
func (e Entry) Expired(now time.Time) bool {
	return e.ExpiresAt != nil && !now.Before(*e.ExpiresAt)
}

type fileBody struct {
	Version int     `json:"version"`
	Tokens  []Entry `json:"tokens"`
}

// ErrExists is returned by Add when the name already has a token.
var ErrExists = errors.New("a token with this name already exists; revoke it first")

// ErrNotFound is returned by Revoke when no token has the name.
var ErrNotFound = errors.New("no token has this name")

// ValidName reports whether name can name a client: 1..64 of letters,
// digits, '.', '_' and '-', starting with a letter or digit.
// (^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$, checked by hand so that no
// expression is compiled when a process starts.)
func ValidName(name string) bool {
	if len(name) == 0 || len(name) > 64 || !isAlnum(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func hashOf(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Read returns the entries of the file at path, sorted by name; a missing
// file holds none. A file that is not private to this user (see
// UnsafeFileError) is refused whatever it holds, so Add and Revoke refuse
// it too and write nothing.
func Read(path string) ([]Entry, error) {
	raw, err := readTrusted(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var body fileBody
	if err := json.Unmarshal(raw, &body); err != nil {
		return nil, fmt.Errorf("token file %s is not valid: %w", FileName, err)
	}
	sort.Slice(body.Tokens, func(i, j int) bool { return body.Tokens[i].Name < body.Tokens[j].Name })
	return body.Tokens, nil
}

// write replaces the file atomically with mode 0600.
func write(path string, entries []Entry) error {
	raw, err := json.MarshalIndent(fileBody{Version: 1, Tokens: entries}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode token file: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create token file directory: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".collab-tokens-*.tmp")
	if err != nil {
		return fmt.Errorf("create token file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return fmt.Errorf("restrict token file: %w", err)
	}
	if _, err := tmp.Write(append(raw, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write token file: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("sync token file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close token file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("replace token file: %w", err)
	}
	return nil
}

// Add makes a new token for name, stores its hash and returns the token,
// which is never stored and cannot be shown again. ttl > 0 makes it expire.
func Add(path, name string, ttl time.Duration, now time.Time) (string, error) {
	if !ValidName(name) {
		return "", fmt.Errorf("invalid token name %q: use 1-64 letters, digits, '.', '_' or '-'", name)
	}
	entries, err := Read(path)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if e.Name == name {
			return "", ErrExists
		}
	}
	secret := make([]byte, 32)
	if _, err := rand.Read(secret); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	token := Prefix + base64.RawURLEncoding.EncodeToString(secret)
	e := Entry{Name: name, Hash: hashOf(token), CreatedAt: now.UTC().Truncate(time.Second)}
	if ttl > 0 {
		exp := now.Add(ttl).UTC().Truncate(time.Second)
		e.ExpiresAt = &exp
	}
	if err := write(path, append(entries, e)); err != nil {
		return "", err
	}
	return token, nil
}

// Revoke removes name's token; ErrNotFound when there is none.
func Revoke(path, name string) error {
	entries, err := Read(path)
	if err != nil {
		return err
	}
	kept := entries[:0]
	for _, e := range entries {
		if e.Name != name {
			kept = append(kept, e)
		}
	}
	if len(kept) == len(entries) {
		return ErrNotFound
	}
	return write(path, kept)
}

// match returns the name of the live entry whose hash is token's.
func match(entries []Entry, token string, now time.Time) (string, bool) {
	want := []byte(hashOf(token))
	name, found := "", false
	for _, e := range entries {
		if subtle.ConstantTimeCompare(want, []byte(e.Hash)) == 1 && !e.Expired(now) {
			name, found = e.Name, true
		}
	}
	return name, found
}
