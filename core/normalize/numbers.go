package normalize

import (
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// ExpectedVersion accepts a row version the caller last saw: at least
// field.ExpectedVersion's Min (1). Anything else is refused with
// invalid_expected_version.
func ExpectedVersion(v int64) (int64, error) {
	if least := field.ExpectedVersion.Spec().Min; v < least {
		return 0, collaberr.Newf(collaberr.InvalidExpectedVersion,
			"expected_version must be a whole number of at least %d (the version you last read); got %d", least, v)
	}
	return v, nil
}

// TTL returns the lease or handoff lifetime in seconds: field.LeaseTTL's
// Default when v is nil, otherwise *v when it lies in its Min..Max;
// anything else is refused with invalid_ttl.
func TTL(v *int64) (int64, error) {
	return ttlInRange(v, field.LeaseTTL.Spec(), collaberr.InvalidTTL)
}

// PresenceTTL returns the presence lifetime in seconds: field.PresenceTTL's
// Default when v is nil, otherwise *v when it lies in its Min..Max;
// anything else is refused with invalid_presence_ttl.
func PresenceTTL(v *int64) (int64, error) {
	return ttlInRange(v, field.PresenceTTL.Spec(), collaberr.InvalidPresenceTTL)
}

func ttlInRange(v *int64, s field.Spec, code collaberr.Code) (int64, error) {
	if v == nil {
		return s.Default, nil
	}
	if *v < s.Min || *v > s.Max {
		return 0, collaberr.Newf(code, "%s must be a whole number of seconds from %d to %d; got %d", s.Name, s.Min, s.Max, *v)
	}
	return *v, nil
}
