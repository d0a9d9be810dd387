package anchor

import "math"

// refOf describes e for the tool result, clamping every copied string.
func refOf(e entry) *Ref {
	return &Ref{
		Sequence:        e.sequence,
		HeadHash:        clamp(e.headHash, maxHashUnits),
		Network:         clamp(e.network, maxNetworkUnits),
		CAIP2:           clampedOrNull(e.members["caip2"], maxNetworkUnits),
		TxHash:          clampedOrNull(e.members["tx_hash"], maxHashUnits),
		Status:          clamp(e.status, maxStatusUnits),
		SubmittedAt:     clampedOrNull(e.members["submitted_at"], maxTimeUnits),
		ConfirmedAt:     clampedOrNull(e.members["confirmed_at"], maxTimeUnits),
		ConfirmedHeight: numberOrNull(e.members["confirmed_height"]),
	}
}

// clampedOrNull clamps raw when it is a JSON string and is nil otherwise.
func clampedOrNull(raw []byte, limit int) *string {
	s, ok := jsonString(raw)
	if !ok {
		return nil
	}
	s = clamp(s, limit)
	return &s
}

// numberOrNull passes a JSON number through and is nil otherwise. A number
// that overflows a double is nil, as JSON.stringify writes Infinity as null,
// and negative zero becomes zero, as JSON.stringify writes it.
func numberOrNull(raw []byte) *float64 {
	f, ok := jsonNumber(raw)
	if !ok || math.IsInf(f, 0) {
		return nil
	}
	if f == 0 {
		f = 0
	}
	return &f
}
