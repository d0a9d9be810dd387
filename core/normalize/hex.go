package normalize

import (
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// SHA256 returns v lower-cased (LowerJS) when the result is exactly the
// number of hexadecimal digits field.SHA256 states (64); otherwise it
// refuses with invalid_sha256. The value is not trimmed.
func SHA256(v string) (string, error) {
	h, s := LowerJS(v), field.SHA256.Spec()
	if !hexDigits(h, s) {
		return "", collaberr.Newf(collaberr.InvalidSHA256, "sha256 must be exactly %d hexadecimal digits", s.Max)
	}
	return h, nil
}

// GitObjectID returns v lower-cased (LowerJS) when the result is as many
// hexadecimal digits as field.ExpectedBaseSHA allows (40 to 64: SHA-1 or
// SHA-256 object names); otherwise it refuses with invalid_git_object_id.
// The value is not trimmed.
func GitObjectID(v string) (string, error) {
	h, s := LowerJS(v), field.ExpectedBaseSHA.Spec()
	if !hexDigits(h, s) {
		return "", collaberr.Newf(collaberr.InvalidGitObjectID, "A Git object ID must be %d to %d hexadecimal digits", s.Min, s.Max)
	}
	return h, nil
}

// hexDigits reports whether h is lower-case hexadecimal of a length in
// s.Min..s.Max.
func hexDigits(h string, s field.Spec) bool {
	return int64(len(h)) >= s.Min && int64(len(h)) <= s.Max && isLowerHex(h)
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
