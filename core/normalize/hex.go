package normalize

import "github.com/agenttool/collab/core/collaberr"

// SHA256 returns v lower-cased (LowerJS) when the result is exactly 64
// hexadecimal digits; otherwise it refuses with invalid_sha256. The value is
// not trimmed.
func SHA256(v string) (string, error) {
	h := LowerJS(v)
	if len(h) != 64 || !isLowerHex(h) {
		return "", collaberr.New(collaberr.InvalidSHA256, "sha256 must be exactly 64 hexadecimal digits")
	}
	return h, nil
}

// GitObjectID returns v lower-cased (LowerJS) when the result is 40 to 64
// hexadecimal digits (SHA-1 or SHA-256 object names); otherwise it refuses
// with invalid_git_object_id. The value is not trimmed.
func GitObjectID(v string) (string, error) {
	h := LowerJS(v)
	if len(h) < 40 || len(h) > 64 || !isLowerHex(h) {
		return "", collaberr.New(collaberr.InvalidGitObjectID, "A Git object ID must be 40 to 64 hexadecimal digits")
	}
	return h, nil
}

// isLowerHex reports whether s holds only the bytes 0-9 and a-f.
func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9') && !('a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
