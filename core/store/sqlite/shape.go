package sqlite

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/agenttool/collab/core/collaberr"
)

// tableInfo returns the ordered column names of table, or nil when the
// table does not exist.
func tableInfo(ctx context.Context, q Querier, table string) ([]string, error) {
	rows, err := q.QueryContext(ctx, "SELECT name FROM pragma_table_info(?) ORDER BY cid", table)
	if err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		cols = append(cols, name)
	}
	return cols, rows.Err()
}

func tableExists(ctx context.Context, q Querier, table string) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&n)
	return n > 0, err
}

func HasUserTables(ctx context.Context, q Querier) (bool, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").Scan(&n)
	return n > 0, err
}

// requireColumns checks that every table in want exists with at least the
// listed columns.
func requireColumns(ctx context.Context, q Querier, want []tableColumns, message string) error {
	shape, err := readShape(ctx, q)
	if err != nil {
		return err
	}
	return shape.requireColumns(ctx, want, message)
}

// schemaShape is what shape validation reads of a database's schema, in
// two queries instead of one per table and trigger (which, at about 25
// statements, were a tenth of a stdio server's start): the ordered column
// names of every table, and the text of every trigger. A name it does not
// hold as a table (a view, or nothing) is asked of the database as before.
type schemaShape struct {
	q        Querier
	columns  map[string][]string
	triggers map[string]string
}

// readShape reads the columns of every table and the text of every trigger.
func readShape(ctx context.Context, q Querier) (*schemaShape, error) {
	s := &schemaShape{q: q, columns: map[string][]string{}, triggers: map[string]string{}}
	rows, err := q.QueryContext(ctx, `SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p
WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		return nil, fmt.Errorf("read the tables' columns: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			return nil, fmt.Errorf("read the tables' columns: %w", err)
		}
		s.columns[table] = append(s.columns[table], column)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the tables' columns: %w", err)
	}
	trows, err := q.QueryContext(ctx, "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql IS NOT NULL")
	if err != nil {
		return nil, fmt.Errorf("read triggers: %w", err)
	}
	defer trows.Close()
	for trows.Next() {
		var name, text string
		if err := trows.Scan(&name, &text); err != nil {
			return nil, fmt.Errorf("read triggers: %w", err)
		}
		s.triggers[name] = text
	}
	return s, trows.Err()
}

// tableInfo is the package's tableInfo, answered from what was read.
func (s *schemaShape) tableInfo(ctx context.Context, table string) ([]string, error) {
	if cols, ok := s.columns[table]; ok {
		return cols, nil
	}
	return tableInfo(ctx, s.q, table)
}

// requireColumns is the package's requireColumns over what was read.
func (s *schemaShape) requireColumns(ctx context.Context, want []tableColumns, message string) error {
	for _, tc := range want {
		cols, err := s.tableInfo(ctx, tc.table)
		if err != nil {
			return err
		}
		if cols == nil {
			return collaberr.New(collaberr.DatabaseSchemaMismatch, message).With("missing_table", tc.table)
		}
		for _, c := range tc.columns {
			if !slices.Contains(cols, c) {
				return collaberr.New(collaberr.DatabaseSchemaMismatch, message).
					With("table", tc.table).With("missing_column", c)
			}
		}
	}
	return nil
}

func ColumnExists(ctx context.Context, q Querier, table, column string) (bool, error) {
	cols, err := tableInfo(ctx, q, table)
	return slices.Contains(cols, column), err
}

// hasV2Marker reports whether any object of the v0.2 protocol exists.
func hasV2Marker(ctx context.Context, q Querier) (bool, error) {
	for _, t := range []string{"coordination_sessions", "schema_migrations"} {
		if ok, err := tableExists(ctx, q, t); err != nil || ok {
			return ok, err
		}
	}
	for _, tc := range [][2]string{{"workspaces", "repository_key"}, {"tasks", "coordination_mode"}, {"events", "session_id"}} {
		if ok, err := ColumnExists(ctx, q, tc[0], tc[1]); err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

const incompleteLegacy = "The SQLite file is missing tables or columns of a collab database; it is not a complete collab journal"

// foreignKeyCheck refuses a database whose rows point nowhere.
type foreignKeyCheck func(ctx context.Context, q Querier) error

// validateShape checks the database against the layout expected for its
// user_version (0 = v0.1 or public v0.2, 2 = hardened preview, 3 = current),
// with SQLite's full foreign key check.
func validateShape(ctx context.Context, q Querier, userVersion, applicationID int64) error {
	return validateShapeWith(ctx, q, userVersion, applicationID, checkAllForeignKeys)
}

// validateShapeWith is validateShape with the foreign key check fk.
func validateShapeWith(ctx context.Context, q Querier, userVersion, applicationID int64, fk foreignKeyCheck) error {
	shape, err := readShape(ctx, q)
	if err != nil {
		return err
	}
	if err := shape.requireColumns(ctx, legacyColumns, incompleteLegacy); err != nil {
		return err
	}
	switch {
	case userVersion < 2:
		return validateLegacyOnly(ctx, q, shape, applicationID)
	case userVersion == 2:
		if ok, err := tableExists(ctx, q, "coordination_sessions"); err != nil || ok {
			if err != nil {
				return err
			}
			return collaberr.New(collaberr.DatabasePartialMigration,
				"The preview-schema database already has a coordination_sessions table; its migration was interrupted by another tool")
		}
		return shape.validateV2(ctx, q, "sessions", []int64{2}, fk)
	default:
		return shape.validateV2(ctx, q, "coordination_sessions", []int64{2, 3}, fk)
	}
}

func validateLegacyOnly(ctx context.Context, q Querier, shape *schemaShape, applicationID int64) error {
	marker, err := hasV2Marker(ctx, q)
	if err != nil {
		return err
	}
	if marker || applicationID != 0 {
		return collaberr.New(collaberr.DatabasePartialMigration,
			"The database has v0.2 objects but no committed schema version; it was left half-migrated")
	}
	cols, err := shape.tableInfo(ctx, "sessions")
	if err != nil {
		return err
	}
	if cols != nil && !slices.Equal(cols, presenceColumns) {
		return collaberr.New(collaberr.DatabasePartialMigration,
			"The database has a sessions table of an unknown shape and no committed schema version")
	}
	return nil
}

const incompleteV2 = "The collab schema is missing tables or columns this version needs"

// validateV2Shape checks the hardened layout, with the credential-bound
// session table named table and the expected migration receipts.
func validateV2Shape(ctx context.Context, q Querier, table string, versions []int64) error {
	shape, err := readShape(ctx, q)
	if err != nil {
		return err
	}
	return shape.validateV2(ctx, q, table, versions, checkAllForeignKeys)
}

// validateV2 is validateV2Shape over the shape already read, with the
// foreign key check fk.
func (shape *schemaShape) validateV2(ctx context.Context, q Querier, table string, versions []int64, fk foreignKeyCheck) error {
	want := append(slices.Clone(v2RequiredColumns), tableColumns{table, coordinationColumns})
	if err := shape.requireColumns(ctx, want, incompleteV2); err != nil {
		return err
	}
	cols, err := shape.tableInfo(ctx, table)
	if err != nil {
		return err
	}
	if !slices.Equal(cols, coordinationColumns) {
		return collaberr.New(collaberr.DatabaseSchemaMismatch, "The credential-bound session table does not have the expected columns").
			With("table", table)
	}
	if table == "coordination_sessions" {
		if cols, err = shape.tableInfo(ctx, "sessions"); err != nil {
			return err
		}
		if !slices.Equal(cols, presenceColumns) {
			return collaberr.New(collaberr.DatabaseSchemaMismatch, "The presence session table does not have the expected columns").
				With("table", "sessions")
		}
	}
	if err := validateTriggers(shape); err != nil {
		return err
	}
	if err := validateReceiptsAndGuard(ctx, q, versions); err != nil {
		return err
	}
	return fk(ctx, q)
}

func validateTriggers(shape *schemaShape) error {
	for _, name := range guardTriggers {
		text, ok := shape.triggers[name]
		if !ok || !containsAll(text, "v2_write_guard", guardAbortMessage) {
			return collaberr.New(collaberr.DatabaseSchemaMismatch, "A v0.2 write-guard trigger is missing or altered").With("trigger", name)
		}
	}
	return nil
}

func validateReceiptsAndGuard(ctx context.Context, q Querier, versions []int64) error {
	rows, err := q.QueryContext(ctx, "SELECT version, protocol FROM schema_migrations ORDER BY version")
	if err != nil {
		return fmt.Errorf("read schema_migrations: %w", err)
	}
	var got []int64
	protocolsOK := true
	for rows.Next() {
		var v int64
		var p string
		if err := rows.Scan(&v, &p); err != nil {
			rows.Close()
			return err
		}
		got = append(got, v)
		protocolsOK = protocolsOK && p == migrationProtocol
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read schema_migrations: %w", err)
	}
	if !slices.Equal(got, versions) || !protocolsOK {
		return collaberr.New(collaberr.DatabaseMigrationReceiptInvalid,
			"The schema_migrations ledger does not match the schema version; the file was altered outside collab")
	}
	var guards int
	if err := q.QueryRowContext(ctx, "SELECT count(*) FROM v2_write_guard").Scan(&guards); err != nil {
		return fmt.Errorf("read v2_write_guard: %w", err)
	}
	if guards != 0 {
		return collaberr.New(collaberr.DatabaseWriteGuardInvalid,
			"The v2_write_guard table holds rows at rest; a writer left it inconsistent")
	}
	return nil
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
