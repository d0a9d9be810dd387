package sqlite

import "github.com/agenttool/collab/core/store/sqltx"

// BesideDDL returns the statements that create one of the tables kept
// beside the journal (delivery_receipts, session_hosts) in a file that
// lacks it, as the engine makes them on first use; false for any other
// name.
func BesideDDL(table string) ([]string, bool) {
	switch table {
	case sqltx.DeliveriesTable:
		return sqltx.DeliveriesDDL, true
	case sqltx.SessionHostsTable:
		return sqltx.SessionHostsDDL, true
	}
	return nil, false
}
