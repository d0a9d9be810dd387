// Package tokens keeps the bearer tokens that let network clients reach a
// collab server. Each token names one client. Only a SHA-256 hash of each
// token is stored, in a 0600 JSON file beside the database; the token
// itself is shown once, when it is made. A Store re-reads the file when it
// changes on disk, so a running server sees tokens added or revoked by
// another process without a restart.
package tokens
