package anchor

import (
	"strconv"

	"github.com/agenttool/collab/core/canon"
)

// Why Status and Ref render themselves: strings copied from the ledger may
// hold an unpaired UTF-16 surrogate (from a \udxxx escape, or from a clamp
// that cut a pair), kept as WTF-8. encoding/json would write each of its
// bytes as U+FFFD; the reference's JSON.stringify writes the surrogate as a
// lowercase \udxxx escape. canon.AppendString writes strings exactly as
// JSON.stringify does, and canon.AppendNumber numbers, so the answer is the
// reference's byte for byte. The key order is the documented one.

// MarshalJSON writes the status with its keys in the documented order and
// every string as JSON.stringify writes it (unpaired surrogates as \udxxx).
func (st Status) MarshalJSON() ([]byte, error) {
	b := make([]byte, 0, 512)
	b = append(b, `{"workspace_id":`...)
	b = canon.AppendString(b, st.WorkspaceID)
	b = append(b, `,"head_sequence":`...)
	b = strconv.AppendInt(b, st.HeadSequence, 10)
	b = append(b, `,"head_hash":`...)
	b = canon.AppendString(b, st.HeadHash)
	b = append(b, `,"scope_note":`...)
	b = canon.AppendString(b, st.ScopeNote)
	b = append(b, `,"status":`...)
	b = canon.AppendString(b, st.Status)
	b = append(b, `,"ledger_readable":`...)
	b = strconv.AppendBool(b, st.LedgerReadable)
	b = append(b, `,"anchor":`...)
	b = st.Anchor.appendJSON(b)
	b = append(b, `,"lag_events":`...)
	if st.LagEvents == nil {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, *st.LagEvents, 10)
	}
	b = append(b, `,"reason":`...)
	b = canon.AppendString(b, st.Reason)
	return append(b, '}'), nil
}

// MarshalJSON writes the reference in the documented key order, strings as
// JSON.stringify writes them and confirmed_height as a JavaScript number.
func (r *Ref) MarshalJSON() ([]byte, error) {
	return r.appendJSON(nil), nil
}

// appendJSON appends r, or null for a nil r.
func (r *Ref) appendJSON(b []byte) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"sequence":`...)
	b = strconv.AppendInt(b, r.Sequence, 10)
	b = append(b, `,"head_hash":`...)
	b = canon.AppendString(b, r.HeadHash)
	b = append(b, `,"network":`...)
	b = canon.AppendString(b, r.Network)
	b = appendOptional(append(b, `,"caip2":`...), r.CAIP2)
	b = appendOptional(append(b, `,"tx_hash":`...), r.TxHash)
	b = append(b, `,"status":`...)
	b = canon.AppendString(b, r.Status)
	b = appendOptional(append(b, `,"submitted_at":`...), r.SubmittedAt)
	b = appendOptional(append(b, `,"confirmed_at":`...), r.ConfirmedAt)
	b = append(b, `,"confirmed_height":`...)
	if r.ConfirmedHeight == nil {
		b = append(b, "null"...)
	} else {
		b = canon.AppendNumber(b, *r.ConfirmedHeight)
	}
	return append(b, '}')
}

func appendOptional(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return canon.AppendString(b, *s)
}
