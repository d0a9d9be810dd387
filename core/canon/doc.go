// Package canon produces canonical JSON byte-for-byte as the reference
// implementation hashes it: the value is read with JavaScript JSON.parse
// semantics, every object's members are reordered the way a JavaScript engine
// enumerates them after a UTF-16 code-unit sort, and the result is written with
// JSON.stringify rules (minimal string escaping, ECMAScript number formatting).
//
// Go strings cannot carry unpaired UTF-16 surrogates as UTF-8, so this package
// stores them as WTF-8: the three-byte generalised UTF-8 form of the surrogate
// code point (ED A0 80 through ED BF BF). Parse produces that form for escapes
// such as "\ud800" that do not belong to a valid pair, and the encoder turns it
// back into a lowercase "\udxxx" escape.
//
// Values handled by the package are the ones JSON.parse can produce: nil, bool,
// float64, string, []any and map[string]any. Append also accepts a few common
// Go types that map onto them without loss.
package canon

// maxDepth bounds the nesting of arrays and objects that Parse, IsCanonical
// and Append accept. It matches encoding/json and keeps recursion bounded.
const maxDepth = 10000
