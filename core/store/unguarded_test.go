package store_test

import (
	"context"
	"slices"
	"testing"
)

// guardedTables are the tables the v0.2 triggers guard, as
// sessionMutation.unguarded names them.
var guardedTables = []string{"tasks", "artifacts", "handoffs"}

// TestOnlyGuardedTablesHaveTriggers holds the schema to guardedTables: a
// change marked unguarded (a report) writes none of them, which is only
// safe while no trigger watches any other table.
func TestOnlyGuardedTablesHaveTriggers(t *testing.T) {
	st, ss := benchSession(t)
	rows, err := readPool(st).QueryContext(context.Background(),
		"SELECT DISTINCT tbl_name FROM sqlite_schema WHERE type = 'trigger' ORDER BY tbl_name")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := slices.Sorted(slices.Values(guardedTables))
	if !slices.Equal(tables, want) {
		t.Fatalf("triggers watch %v; guardedTables says %v", tables, want)
	}
	// And a report, which takes no guard row, still lands whole.
	if _, err := st.AppendReport(context.Background(), benchCred(ss), benchReport("unguarded")); err != nil {
		t.Fatal(err)
	}
}
