package credfile

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
)

// tokenHashDomain separates session-token hashes from every other SHA-256 in
// the protocol; it is followed by one NUL byte and the token.
const tokenHashDomain = "agenttool.collab/session-token/v1"

// tokenBytes is the entropy of a session token.
const tokenBytes = 32

// TokenHash returns the stored form of a session token: lowercase hex
// SHA-256 of "agenttool.collab/session-token/v1" NUL token (UTF-8).
func TokenHash(token string) string {
	h := sha256.New()
	h.Write([]byte(tokenHashDomain))
	h.Write([]byte{0})
	h.Write([]byte(token))
	return hex.EncodeToString(h.Sum(nil))
}

// NewToken returns a fresh bearer token: 32 bytes from crypto/rand encoded
// as unpadded base64url, always 43 characters.
func NewToken() (string, error) {
	b := make([]byte, tokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate session token: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// zeroHash stands in for a missing stored hash so that an unknown session
// costs the same comparison as a known one.
var zeroHash = make([]byte, sha256.Size)

// TokenMatches reports, in constant time with respect to the token, whether
// token hashes to storedHashHex. An empty or undecodable stored hash is
// compared against 32 zero bytes and never matches.
func TokenMatches(storedHashHex, token string) bool {
	want, err := hex.DecodeString(storedHashHex)
	valid := err == nil && len(want) == sha256.Size
	if !valid {
		want = zeroHash
	}
	got := sha256.Sum256([]byte(tokenHashDomain + "\x00" + token))
	equal := subtle.ConstantTimeCompare(want, got[:]) == 1
	return valid && equal
}

// TokenLength is the length of every session token NewToken returns.
const TokenLength = 43

// IsTokenShaped reports whether s has the shape of a session token:
// exactly TokenLength characters of the base64url alphabet. It says
// nothing about whether any session holds it.
func IsTokenShaped(s string) bool { return len(s) == TokenLength && isBase64URL(s) }

// isBase64URL reports whether every byte of s is in the unpadded base64url
// alphabet (A-Z a-z 0-9 - _).
func isBase64URL(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
