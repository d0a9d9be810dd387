package normalize

import "github.com/agenttool/collab/core/collaberr"

// ExpectedVersion accepts a row version the caller last saw: 1 or more.
// Anything else is refused with invalid_expected_version.
func ExpectedVersion(v int64) (int64, error) {
	if v < 1 {
		return 0, collaberr.Newf(collaberr.InvalidExpectedVersion,
			"expected_version must be a whole number of at least 1 (the version you last read); got %d", v)
	}
	return v, nil
}

// TTL returns the lease or handoff lifetime in seconds: DefaultTTL when v
// is nil, otherwise *v when it lies in MinTTL..MaxTTL; anything else is
// refused with invalid_ttl.
func TTL(v *int64) (int64, error) {
	return ttlInRange(v, DefaultTTL, collaberr.InvalidTTL)
}

// PresenceTTL returns the presence lifetime in seconds: DefaultPresenceTTL
// when v is nil, otherwise *v when it lies in MinTTL..MaxTTL; anything else
// is refused with invalid_presence_ttl.
func PresenceTTL(v *int64) (int64, error) {
	return ttlInRange(v, DefaultPresenceTTL, collaberr.InvalidPresenceTTL)
}

func ttlInRange(v *int64, fallback int64, code collaberr.Code) (int64, error) {
	if v == nil {
		return fallback, nil
	}
	if *v < MinTTL || *v > MaxTTL {
		return 0, collaberr.Newf(code, "ttl_seconds must be a whole number of seconds from %d to %d; got %d", MinTTL, MaxTTL, *v)
	}
	return *v, nil
}
