package sqltx

import "strings"

// Assignments is the SET clause of a versioned write: the columns a row
// changes and their new values, in the order they were set. A write sets
// only the columns whose values changed, so that a column it leaves alone
// is never named in its statement.
type Assignments struct {
	columns []string
	args    []any
}

// Set adds column = v when changed is true.
func (a *Assignments) Set(column string, changed bool, v any) {
	if changed {
		a.columns = append(a.columns, column)
		a.args = append(a.args, v)
	}
}

// Empty reports whether no column changed.
func (a Assignments) Empty() bool { return len(a.columns) == 0 }

// Columns lists the changed columns in the order they were set.
func (a Assignments) Columns() []string { return a.columns }

// Clause is the assignment list of an UPDATE statement ("a = ?, b = ?").
func (a Assignments) Clause() string {
	return strings.Join(a.columns, " = ?, ") + " = ?"
}

// Args returns a fresh slice of the new values, in column order, for the
// caller to append its WHERE arguments to.
func (a Assignments) Args() []any {
	return append(make([]any, 0, len(a.args)+3), a.args...)
}

// equalText reports whether two nullable texts hold the same value.
func equalText(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// flag is a boolean as the schema stores it (0 or 1).
func flag(b bool) int {
	if b {
		return 1
	}
	return 0
}
