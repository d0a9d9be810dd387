// Package field is the one table of the input fields collab accepts: for
// each field its name, kind, bounds, pattern and default. Two readers
// build on it and nothing else states a limit: the MCP face renders the
// tools' input schemas from it (hosts/mcp), and the store's input checks
// apply it through core/normalize. A limit changed here therefore changes
// what a client is told and what the store refuses, together.
//
// Lengths are UTF-16 code units, as the contract counts them
// (docs/contract.md#text-rules-and-limits). The package imports nothing at
// all, so every layer may read it (and a test can type-check it alone).
package field
