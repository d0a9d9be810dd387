package layout

import (
	"slices"
	"testing"
)

// TestTablesAreConsistent checks what the engines and the copy rely on:
// one entry per table and per column, a key made of the table's columns,
// Added only on v0.1 tables, and journal tables first.
func TestTablesAreConsistent(t *testing.T) {
	seen := map[string]bool{}
	journalEnded := false
	for _, tb := range Tables() {
		if seen[tb.Name] {
			t.Errorf("table %s is described twice", tb.Name)
		}
		seen[tb.Name] = true
		if tb.Home != Journal {
			journalEnded = true
		} else if journalEnded {
			t.Errorf("journal table %s comes after a table of another home", tb.Name)
		}
		names := Names(tb.All())
		for i, n := range names {
			if slices.Index(names, n) != i {
				t.Errorf("column %s.%s is described twice", tb.Name, n)
			}
		}
		if len(tb.Key) == 0 {
			t.Errorf("table %s has no key", tb.Name)
		}
		for _, k := range tb.Key {
			if !slices.Contains(names, k) {
				t.Errorf("key column %s.%s is not a column", tb.Name, k)
			}
		}
		if tb.Since == V2 && len(tb.Added) > 0 {
			t.Errorf("table %s is created by v0.2 yet has v0.2 additions", tb.Name)
		}
		if tb.RowOrdered && tb.Home != Journal {
			t.Errorf("table %s keeps its row order but is not copied", tb.Name)
		}
	}
}

// TestTablesReturnsItsOwnCopy checks that a caller changing what Tables
// returned does not change what the next caller reads.
func TestTablesReturnsItsOwnCopy(t *testing.T) {
	first := Tables()
	first[0].Columns[0].Name = "changed"
	if Tables()[0].Columns[0].Name == "changed" {
		t.Fatal("Tables handed out shared state")
	}
}
