package field

// Kind says how a field's value is read and so what its bounds measure.
type Kind uint8

const (
	// Text is free text: Min and Max count UTF-16 code units.
	Text Kind = iota + 1
	// Identifier is an identifier under the identifier rule (IsID):
	// Max counts characters and Pattern is IDPattern.
	Identifier
	// Integer is a whole number: Min and Max bound its value.
	Integer
	// Hex is a digest of hexadecimal digits: Min and Max count them.
	Hex
	// List is an array: Max bounds its entries and Item rules each one.
	List
)

// Spec is one field of the table. Name is the argument's name and, for
// text and identifiers, the field named in the store's refusal
// (invalid_<Name>). A zero bound means none.
type Spec struct {
	Name string
	Kind Kind
	// Min is the least length the tool schema states (Text, Identifier),
	// or the least value (Integer). The store refuses empty text always.
	Min int64
	// Max is the most the store accepts: UTF-16 code units, entries or
	// value; the tool schema states the same unless SchemaMax is set.
	Max int64
	// SchemaMax, when set, is a smaller bound the tool schema states
	// instead of Max. Only one field needs it: the reference advertises
	// 8000 characters for a report body and its store takes 9000, and
	// writing both here is what keeps the two from drifting apart.
	SchemaMax int64
	// Pattern is the JSON Schema pattern the whole value matches, when
	// the field has one.
	Pattern string
	// Default is the value an Integer field takes when left out.
	Default int64
	// Item is the row ruling each entry of a List.
	Item Field
	// Also lists other argument names held to this rule whose refusals
	// still name Name (actor_label and to_actor are refused as actor).
	Also []string
}

// StatedMax is the upper bound the tool schema states: SchemaMax when
// set, otherwise Max.
func (s Spec) StatedMax() int64 {
	if s.SchemaMax != 0 {
		return s.SchemaMax
	}
	return s.Max
}

// Limit is Max as an int, for length and count comparisons.
func (s Spec) Limit() int { return int(s.Max) }

// Admits reports whether n lies in the Integer field's Min..Max (Max 0:
// no upper bound).
func (s Spec) Admits(n int64) bool {
	return n >= s.Min && (s.Max == 0 || n <= s.Max)
}
