package normalize

import (
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// ID returns the trimmed identifier v for field, refusing with
// invalid_<field> unless CleanText accepts it (MaxIDLength) and it meets
// the identifier rule (field.MatchesID).
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

// isIDText reports whether s meets the identifier rule, whatever its
// length (field.MatchesID).
func isIDText(s string) bool { return field.MatchesID(s) }

// isSymbolic reports whether s meets the rule's lower-case form
// (field.MatchesSymbol).
func isSymbolic(s string) bool { return field.MatchesSymbol(s) }
