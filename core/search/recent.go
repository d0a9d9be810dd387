package search

// A search by recency reads the index in its own row order. A document's
// FTS5 rowid is its docs.id, so ordering by text.rowid is ordering by
// d.id, but only the former reaches FTS5: it then walks its matches
// newest first and the LIMIT stops it after one page, where ordering by
// d.id made SQLite score and sort every match before keeping a page. A
// two-word query found in 11,430 of 20,008 generated events took 39.7 ms
// that way and 1.5 ms this way (core/search BenchmarkSearchHistory).
const (
	// recentOrder is the ORDER BY of a search by recency.
	recentOrder = "text.rowid DESC"
	// recentAfter continues a page by recency after the row its cursor
	// names.
	recentAfter = "text.rowid < ?"
)
