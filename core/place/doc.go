// Package place is the one home of collab's environment and path rules:
// which environment variables a collab process reads, which database file
// it opens, where the anchor ledger, the session credentials and every
// other file kept beside the database live.
//
// Every rule is a pure function of its inputs. The environment is passed
// in as an Env value (OS returns the real one), never read from deep
// inside, so each rule is tested as data for Linux, macOS and Windows on
// any machine. docs/paths.md is generated from this package (see
// Variables and BesideDatabase) and a test fails when it is stale.
//
// The rules are the reference implementation's, so that every
// implementation and every host on one machine finds the same files; the
// few places where they differ by operating system take the OS from
// Env.GOOS.
package place
