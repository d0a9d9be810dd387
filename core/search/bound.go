package search

import (
	"strconv"
	"strings"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/store"
)

// Bound limits hits by journal sequence or by time, inclusively. The zero
// Bound limits nothing.
type Bound struct {
	// Sequence is a journal sequence number (0 when the bound is a time).
	Sequence int64
	// Time is a journal timestamp in the stored form (empty when the
	// bound is a sequence).
	Time string
}

// ParseBound reads a since or until value: a decimal journal sequence
// number, an RFC 3339 time, or a date (YYYY-MM-DD, the start of that UTC
// day for since, its end for until).
func ParseBound(s string, until bool) (Bound, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Bound{}, nil
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
		return Bound{Sequence: n}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return Bound{Time: store.FormatTime(t)}, nil
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if until {
			t = t.Add(24*time.Hour - time.Millisecond)
		}
		return Bound{Time: store.FormatTime(t)}, nil
	}
	return Bound{}, collaberr.New(collaberr.InvalidBound,
		"since and until take a journal sequence number, an RFC 3339 time or a YYYY-MM-DD date").With("value", s)
}

// IsZero reports whether the bound limits nothing.
func (b Bound) IsZero() bool { return b.Sequence == 0 && b.Time == "" }

func (b Bound) clause(op string) string {
	switch {
	case b.Time != "":
		return "d.occurred_at " + op + " ?"
	case b.Sequence != 0:
		return "d.sequence " + op + " ?"
	}
	return ""
}

func (b Bound) args() []any {
	switch {
	case b.Time != "":
		return []any{b.Time}
	case b.Sequence != 0:
		return []any{b.Sequence}
	}
	return nil
}

func (b Bound) String() string {
	if b.Time != "" {
		return b.Time
	}
	if b.Sequence != 0 {
		return strconv.FormatInt(b.Sequence, 10)
	}
	return ""
}
