package journal

// Verifier checks a run of events in sequence order against the chain
// rules: contiguous sequences, each prev_hash equal to the previous hash,
// and each stored hash equal to its recomputation. Feed events with Next;
// the zero Verifier is not ready, use NewVerifier.
type Verifier struct {
	hasher   Hasher
	expected int64
	prev     string
	valid    bool
}

// NewVerifier starts verification after the anchor (afterSequence,
// afterHash): for a full journal that is (0, GenesisHash).
func NewVerifier(afterSequence int64, afterHash string) *Verifier {
	return &Verifier{expected: afterSequence + 1, prev: afterHash, valid: true}
}

// Next checks one event and reports whether the chain is still valid. Once
// invalid it stays invalid.
func (v *Verifier) Next(e *Event) bool {
	if !v.valid {
		return false
	}
	if e.Sequence != v.expected || e.PrevHash != v.prev || !v.hasher.Matches(e) {
		v.valid = false
		return false
	}
	v.expected++
	v.prev = e.Hash
	return true
}

// Valid reports whether every event fed so far verified.
func (v *Verifier) Valid() bool { return v.valid }

// Last returns the sequence and hash of the last verified event (or the
// starting anchor when none was fed).
func (v *Verifier) Last() (int64, string) { return v.expected - 1, v.prev }
