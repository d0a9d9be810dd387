package postgres

import "github.com/agenttool/collab/core/store/sqltx"

// dialect is how this engine's SQL differs from SQLite's in the shared
// domain statements (see sqltx.Syntax).
var dialect = sqltx.NewDialect(sqltx.Syntax{
	// The identity column each table SQLite orders by rowid carries here.
	RowOrder: "row_id",
	Limit:    limitArg,
	RecordedCheckpoints: `SELECT base_checkpoint_json, result_checkpoint_json FROM tasks
WHERE workspace_id = ? AND (base_checkpoint_json IS NOT NULL OR result_checkpoint_json IS NOT NULL)
ORDER BY row_id`,
	InsertRepository: "INSERT INTO repositories (key, created_at) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
	// Opening creates the session host table, unless the role may not
	// (addSessionHosts): its readers look first.
	SessionHostsExist: "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'session_hosts'",
})

// limitArg binds a LIMIT the way SQLite reads it: a negative limit is no
// limit (PostgreSQL refuses a negative one; LIMIT NULL is none).
func limitArg(n int64) any {
	if n < 0 {
		return nil
	}
	return n
}
