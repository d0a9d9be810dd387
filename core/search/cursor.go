package search

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// position is where the next page starts. Ceiling is the highest index row
// the first page could see: later pages never show rows indexed after it,
// so new events cannot push hits between pages.
type position struct {
	Generation string `json:"g"`
	Query      string `json:"q"`
	Ceiling    int64  `json:"c"`
	Offset     int    `json:"o,omitempty"`
	After      int64  `json:"a,omitempty"`
	Mode       int    `json:"m,omitempty"`
}

// fingerprint binds a cursor to the search it continues.
func fingerprint(q Query) string {
	kinds := append([]string(nil), q.Kinds...)
	sort.Strings(kinds)
	b, _ := json.Marshal([]string{q.WorkspaceID, q.Text, strings.Join(kinds, ","), q.Actor, q.SessionID, q.TaskID,
		q.Since.String(), q.Until.String(), q.Order})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

func encodeCursor(q Query, generation string, p position) string {
	p.Generation, p.Query = generation, fingerprint(q)
	b, _ := json.Marshal(p)
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads q.Cursor; the zero position starts a new search.
func decodeCursor(q Query, generation string) (position, error) {
	if q.Cursor == "" {
		return position{}, nil
	}
	var p position
	b, err := base64.RawURLEncoding.DecodeString(q.Cursor)
	if err != nil || json.Unmarshal(b, &p) != nil || p.Ceiling < 0 || p.Offset < 0 {
		return position{}, collaberr.New(collaberr.InvalidCursor, "The cursor is not one this search returned")
	}
	if p.Query != fingerprint(q) {
		return position{}, collaberr.New(collaberr.InvalidCursor, "The cursor belongs to a search with another query or other filters; repeat them exactly or search again without it")
	}
	if p.Generation != generation {
		return position{}, collaberr.New(collaberr.InvalidCursor, "The search index was rebuilt since this cursor was issued; search again without it")
	}
	return p, nil
}
