package sqlite

import "github.com/agenttool/collab/core/store/sqltx"

// dialect is how this engine's SQL differs from PostgreSQL's in the
// shared domain statements (see sqltx.Syntax). The texts are the ones this
// engine always ran, byte for byte, so the statement cache and the
// reference's query plans see the same statements as before.
var dialect = sqltx.NewDialect(sqltx.Syntax{
	RowOrder: "rowid",
	// SQLite reads a negative LIMIT as none.
	Limit: func(n int64) any { return n },
	// No ORDER BY: the seam promises no order, and this is the statement
	// this engine always ran.
	RecordedCheckpoints: `SELECT base_checkpoint_json, result_checkpoint_json FROM tasks
WHERE workspace_id = ? AND (base_checkpoint_json IS NOT NULL OR result_checkpoint_json IS NOT NULL)`,
	InsertRepository: "INSERT OR IGNORE INTO repositories (key, created_at) VALUES (?, ?)",
	// The delivery table is made on first use, so opening a file never
	// adds it.
	DeliveriesExist: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'delivery_receipts'",
	// So is the session host table.
	SessionHostsExist: "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'session_hosts'",
})
