// Package scope validates the repository path scopes a task declares and
// decides when two tasks' scopes overlap.
//
// Scopes are lexical: nothing here touches the file system or resolves
// symbolic links. Normalize stores scopes exactly as given after POSIX
// normalisation (no case folding, no Unicode normalisation); the overlap
// check is deliberately more cautious than the file system and compares
// composed (NFC), JavaScript-lower-cased keys segment by segment.
//
// The rules are those of docs/contract.md#path-scopes.
//
// Inputs are assumed to be well-formed UTF-8 (see package normalize);
// Normalize refuses anything else.
package scope
