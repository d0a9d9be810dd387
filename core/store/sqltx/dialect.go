package sqltx

import "fmt"

// A Dialect is exactly what the two engines' domain SQL says differently;
// every other statement in this package is one text for both. Build one
// per engine with NewDialect, once, and share it between transactions.
type Dialect struct {
	limit               func(n int64) any
	recordedCheckpoints string
	insertRepository    string
	deliveriesExist     string
	sessionHostsExist   string

	// Statements that name the row-order column, built by NewDialect so
	// that no transaction assembles them again.
	handoffsOrder  string
	reservingTasks string
	newestTasks    string
}

// Syntax names the differences a Dialect is built from.
type Syntax struct {
	// RowOrder is the column that numbers a table's rows in insertion
	// order, by which the statements that must list rows the way the
	// reference's SQLite indexes yield them break ties: SQLite's rowid, or
	// the identity column a PostgreSQL table carries for it.
	RowOrder string
	// Limit binds a LIMIT parameter. The engine's callers pass a negative
	// limit to mean none, which SQLite reads that way and PostgreSQL
	// refuses.
	Limit func(n int64) any
	// RecordedCheckpoints selects (base_checkpoint_json,
	// result_checkpoint_json) of the workspace's ("?") tasks that have
	// either. The seam promises no order; each engine keeps the statement
	// it ran before the two shared one package (SQLite's has no ORDER BY,
	// PostgreSQL's orders by row_id).
	RecordedCheckpoints string
	// InsertRepository adds a repositories row (key, created_at) unless
	// one with that key exists.
	InsertRepository string
	// DeliveriesExist counts (0 or 1) the delivery tables of a store that
	// creates it on first use (SQLite: a file the reference made has
	// none); empty when the engine's schema always holds it.
	DeliveriesExist string
	// SessionHostsExist counts (0 or 1) the session host tables, as
	// DeliveriesExist does for deliveries.
	SessionHostsExist string
}

// NewDialect builds the dialect s describes.
func NewDialect(s Syntax) *Dialect {
	return &Dialect{
		limit:               s.Limit,
		recordedCheckpoints: s.RecordedCheckpoints,
		insertRepository:    s.InsertRepository,
		deliveriesExist:     s.DeliveriesExist,
		sessionHostsExist:   s.SessionHostsExist,
		handoffsOrder:       " ORDER BY " + s.RowOrder,
		reservingTasks:      fmt.Sprintf(reservingTasksSelect, s.RowOrder),
		newestTasks:         newestTasksSelect + " ORDER BY " + s.RowOrder + " DESC LIMIT ?",
	}
}
