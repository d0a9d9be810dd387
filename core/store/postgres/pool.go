package postgres

import "database/sql"

// Pool returns the engine's connection pool, whose connections have
// search_path set to SchemaName. It exists for whole-database work that is
// not a coordination rule (copying a journal between engines, which needs
// pgx's COPY through the stdlib adapter's raw connection); the rules go
// through Write, Read and ReadChains.
func (e *Engine) Pool() *sql.DB { return e.pool }
