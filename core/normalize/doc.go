// Package normalize holds the input rules that every collab operation applies
// to the text, identifiers and small numbers it receives, with the measures
// the contract uses (docs/contract.md#text-rules-and-limits): lengths are
// UTF-16 code units, trimming is ECMAScript String.prototype.trim, sorting is
// by UTF-16 code units and lower-casing is JavaScript's locale-free
// String.prototype.toLowerCase.
//
// Input assumption: strings reach this package after our own JSON decoding,
// and the MCP layer has already refused lone UTF-16 surrogates, so every
// string here is meant to be well-formed UTF-8. The validators still refuse
// malformed UTF-8 (with the field's invalid_<field> code) rather than guess
// what it stood for; the pure helpers (Length, CompareUTF16, LowerJS, TrimJS)
// accept it and treat each bad byte as one unit that they leave unchanged.
//
// Every refusal is a *collaberr.Error whose code and details match the
// contract; the sentences are this project's own.
package normalize
