// Package journal defines the hash-chained event model shared with
// @agenttool/collab: which bytes are hashed, how events chain, and how a
// sequence of stored events is verified. It knows nothing of SQL.
package journal

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/agenttool/collab/core/canon"
)

// Protocol labels. Events written by this implementation always carry
// ProtocolV2; ProtocolV1 events (from public 0.1/0.2 versions) hash without
// a session_id key.
const (
	ProtocolV1 = "agenttool.collab/0.1"
	ProtocolV2 = "agenttool.collab/0.2"
)

// GenesisHash is the prev_hash of sequence 1 and the hash of the genesis cursor.
const GenesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

// Event is one journal entry as stored. PayloadJSON holds the stored
// payload text; hashing always re-canonicalises it.
type Event struct {
	WorkspaceID string
	EpochID     string
	Sequence    int64
	ID          string
	Protocol    string
	Type        string
	EntityID    string
	Actor       string
	OccurredAt  string
	PayloadJSON []byte
	PrevHash    string
	Hash        string
	SessionID   *string
}

// AppendHashBody appends the canonical JSON body whose sha256 is the event
// hash: every stored field but hash, with the payload parsed and
// canonicalised, keys in UTF-16 order, and session_id present (possibly
// null) unless the protocol is exactly ProtocolV1.
func AppendHashBody(dst []byte, e *Event) ([]byte, error) {
	payload, err := canon.Canonicalize(e.PayloadJSON)
	if err != nil {
		return dst, err
	}
	dst = append(dst, `{"actor":`...)
	dst = canon.AppendString(dst, e.Actor)
	dst = append(dst, `,"entity_id":`...)
	dst = canon.AppendString(dst, e.EntityID)
	dst = append(dst, `,"epoch_id":`...)
	dst = canon.AppendString(dst, e.EpochID)
	dst = append(dst, `,"id":`...)
	dst = canon.AppendString(dst, e.ID)
	dst = append(dst, `,"occurred_at":`...)
	dst = canon.AppendString(dst, e.OccurredAt)
	dst = append(dst, `,"payload":`...)
	dst = append(dst, payload...)
	dst = append(dst, `,"prev_hash":`...)
	dst = canon.AppendString(dst, e.PrevHash)
	dst = append(dst, `,"protocol":`...)
	dst = canon.AppendString(dst, e.Protocol)
	dst = append(dst, `,"sequence":`...)
	dst = canon.AppendNumber(dst, float64(e.Sequence))
	if e.Protocol != ProtocolV1 {
		dst = append(dst, `,"session_id":`...)
		if e.SessionID == nil {
			dst = append(dst, "null"...)
		} else {
			dst = canon.AppendString(dst, *e.SessionID)
		}
	}
	dst = append(dst, `,"type":`...)
	dst = canon.AppendString(dst, e.Type)
	dst = append(dst, `,"workspace_id":`...)
	dst = canon.AppendString(dst, e.WorkspaceID)
	return append(dst, '}'), nil
}

// Hasher computes event hashes, reusing one buffer between calls. A Hasher
// is not safe for concurrent use.
type Hasher struct {
	buf []byte
	sum [sha256.Size]byte
	hex [sha256.Size * 2]byte
}

// Hash returns the lowercase hex sha256 of the event's hash body.
func (h *Hasher) Hash(e *Event) (string, error) {
	raw, err := h.hashRaw(e)
	if err != nil {
		return "", err
	}
	return string(raw), nil
}

// Matches reports whether the stored hash equals the recomputed one. It does
// not allocate on the common path.
func (h *Hasher) Matches(e *Event) bool {
	raw, err := h.hashRaw(e)
	return err == nil && string(raw) == e.Hash
}

func (h *Hasher) hashRaw(e *Event) ([]byte, error) {
	var err error
	h.buf, err = AppendHashBody(h.buf[:0], e)
	if err != nil {
		return nil, err
	}
	h.sum = sha256.Sum256(h.buf)
	hex.Encode(h.hex[:], h.sum[:])
	return h.hex[:], nil
}

// Anchor names one point of a journal: the genesis anchor has sequence 0
// and GenesisHash.
type Anchor struct {
	EpochID  string `json:"epoch_id"`
	Sequence int64  `json:"sequence"`
	Hash     string `json:"hash"`
}

// String renders the anchor for diagnostics.
func (a Anchor) String() string {
	return a.EpochID + "@" + strconv.FormatInt(a.Sequence, 10) + ":" + a.Hash
}
