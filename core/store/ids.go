package store

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
)

// newUUID returns a random RFC 4122 version-4 UUID in lower-case hyphenated
// form, the suffix of every generated identifier (event_<uuid>, …).
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}

// workspaceIDFor derives a new workspace's id from its repository key.
func workspaceIDFor(repositoryKey string) string {
	return "ws_" + sha256Hex(repositoryKey)[:24]
}

// sha256Hex is the lower-case hex SHA-256 of s.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
