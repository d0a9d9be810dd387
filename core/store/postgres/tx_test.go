package postgres

import "testing"

// TestRebindNumbersPlaceholdersInOrder checks the translation of the
// engine's "?" placeholders into PostgreSQL's numbered ones.
func TestRebindNumbersPlaceholdersInOrder(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT a FROM t WHERE b = ?", "SELECT a FROM t WHERE b = $1"},
		{"INSERT INTO t (a, b, c) VALUES (?, ?, ?)", "INSERT INTO t (a, b, c) VALUES ($1, $2, $3)"},
		{"WHERE x IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) LIMIT ?",
			"WHERE x IN ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) LIMIT $12"},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNegativeLimitIsNoLimit checks that a LIMIT binds as SQLite reads
// it: a negative limit is none (NULL), others pass through.
func TestNegativeLimitIsNoLimit(t *testing.T) {
	if got := limitArg(-1); got != nil {
		t.Errorf("limitArg(-1) = %v, want nil (no limit)", got)
	}
	if got := limitArg(int64(0)); got != int64(0) {
		t.Errorf("limitArg(0) = %v, want 0", got)
	}
	if got := limitArg(25); got != int64(25) {
		t.Errorf("limitArg(25) = %v, want 25", got)
	}
}
