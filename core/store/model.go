package store

// rowScanner is what *sql.Row and *sql.Rows offer.
type rowScanner interface{ Scan(dest ...any) error }
