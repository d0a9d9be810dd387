package normalize

import (
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/field"
)

// RuntimeKind returns the trimmed, lower-cased runtime kind. It refuses with
// invalid_runtime_kind unless CleanText accepts it (field.RuntimeKind) and,
// after LowerJS, it matches ^[a-z0-9][a-z0-9._:-]*$.
//
// Lower-casing is JavaScript's, not Go's: "İ" becomes "i" + U+0307 and is
// refused as in the reference, where unicode.ToLower would have accepted a
// plain "i". The Kelvin sign U+212A lowers to ASCII "k" under both and is
// accepted.
func RuntimeKind(v string) (string, error) {
	text, err := Text(v, field.RuntimeKind)
	if err != nil {
		return "", err
	}
	kind := LowerJS(text)
	if !isSymbolic(kind) {
		return "", collaberr.New(collaberr.InvalidRuntimeKind,
			"runtime_kind must be a symbolic name: lower-case ASCII letters, digits, '.', '_', ':' and '-', starting with a letter or digit")
	}
	return kind, nil
}

// Capabilities returns the declared capabilities lower-cased, sorted by
// UTF-16 code units and without duplicates (never nil). More entries than
// field.DeclaredCapabilities allows is invalid_declared_capabilities; an
// entry that Text refuses (field.DeclaredCapability) or that is not
// symbolic after LowerJS is invalid_declared_capability.
func Capabilities(v []string) ([]string, error) {
	list := field.DeclaredCapabilities.Spec()
	if len(v) > list.Limit() {
		return nil, collaberr.Newf(collaberr.InvalidDeclaredCapabilities,
			"A session may declare at most %d capabilities; got %d", list.Max, len(v))
	}
	out := make([]string, 0, len(v))
	for _, raw := range v {
		text, err := Text(raw, list.Item)
		if err != nil {
			return nil, err
		}
		capability := LowerJS(text)
		if !isSymbolic(capability) {
			return nil, collaberr.New(collaberr.InvalidDeclaredCapability,
				"Each declared capability must be a short symbolic name (lower-case ASCII letters, digits, '.', '_', ':' and '-'), not free text")
		}
		out = append(out, capability)
	}
	return SortUnique(out), nil
}
