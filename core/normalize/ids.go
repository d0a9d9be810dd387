package normalize

import "github.com/agenttool/collab/core/collaberr"

// ID returns the trimmed identifier v for field, refusing with
// invalid_<field> unless CleanText accepts it (MaxIDLength) and it matches
// ^[A-Za-z0-9][A-Za-z0-9._:-]*$.
func ID(v, field string) (string, error) {
	id, err := CleanText(v, field, MaxIDLength)
	if err != nil {
		return "", err
	}
	if !isIDText(id) {
		return "", collaberr.Newf(collaberr.Invalid(field),
			"%s may use only ASCII letters, digits, '.', '_', ':' and '-', and must start with a letter or digit", field)
	}
	return id, nil
}

// IsID reports whether v is already an identifier as ID returns it:
// accepted, and nothing trimmed. It is for callers that refuse with a code
// of their own rather than invalid_<field>.
func IsID(v string) bool {
	// isIDText admits ASCII only, so bytes and UTF-16 units agree and
	// nothing CleanText would trim or refuse can pass it.
	return len(v) <= MaxIDLength && isIDText(v)
}

// IdempotencyKey returns the trimmed idempotency key, under the same rules
// as ID; every refusal is invalid_idempotency_key.
func IdempotencyKey(v string) (string, error) {
	key, err := CleanText(v, "idempotency_key", MaxIDLength)
	if err != nil {
		return "", err
	}
	if !isIDText(key) {
		return "", collaberr.New(collaberr.InvalidIdempotencyKey,
			"The idempotency key may use only ASCII letters, digits, '.', '_', ':' and '-', and must start with a letter or digit")
	}
	return key, nil
}

// Actor returns the trimmed actor name (CleanText with field "actor" and
// MaxIDLength). Every label that names a person or agent goes through it,
// so presence actor_label errors are reported as invalid_actor.
func Actor(v string) (string, error) {
	return CleanText(v, "actor", MaxIDLength)
}

// isIDText reports whether s matches ^[A-Za-z0-9][A-Za-z0-9._:-]*$.
func isIDText(s string) bool {
	return matchesToken(s, isASCIIAlnum)
}

// isSymbolic reports whether s matches ^[a-z0-9][a-z0-9._:-]*$.
func isSymbolic(s string) bool {
	return matchesToken(s, func(c byte) bool { return ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') })
}

// matchesToken reports whether s is one or more bytes, all accepted by
// alnum or one of ". _ : -", the first accepted by alnum.
func matchesToken(s string, alnum func(byte) bool) bool {
	if s == "" || !alnum(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case alnum(c), c == '.', c == '_', c == ':', c == '-':
		default:
			return false
		}
	}
	return true
}

func isASCIIAlnum(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}
