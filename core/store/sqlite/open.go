package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/gitstate"
	"github.com/agenttool/collab/core/place"
	"github.com/agenttool/collab/core/store"
)

// migrationRetryWindow bounds how long Open waits for another process that
// is creating or migrating the same file.
const migrationRetryWindow = 15 * time.Second

// Open opens (creating if needed) the collab database described by opts,
// validates its shape and journals, and migrates older layouts to schema
// v3 in one transaction. A file it cannot accept is left unchanged.
func Open(ctx context.Context, opts Options) (*DB, error) {
	s := &DB{now: opts.Now, observe: opts.Observe, readOnly: opts.ReadOnly || opts.Inspect, inspect: opts.Inspect}
	if s.now == nil {
		s.now = time.Now
	}
	if s.observe == nil {
		s.observe = gitstate.InspectAndCapture
	}
	s.lockWait = opts.LockWait
	if s.lockWait <= 0 {
		s.lockWait = busyTimeout
	}
	switch opts.Synchronous {
	case "", "normal", "NORMAL":
		s.sync = "normal"
	case "full", "FULL":
		s.sync = "full"
	default:
		return nil, fmt.Errorf("synchronous must be normal or full, not %q", opts.Synchronous)
	}
	if err := s.resolvePath(opts.Path); err != nil {
		return nil, err
	}
	if err := s.openPools(); err != nil {
		return nil, err
	}
	s.writeStmts, s.readStmts = newStmtCache(s.write), newStmtCache(s.read)
	guard, err := s.openGuard()
	if err != nil {
		s.Close()
		return nil, err
	}
	if err := s.initialise(ctx, guard); err != nil {
		// The pools close first and the read-only guard last: the last
		// connection to a WAL file checkpoints it on close unless it is
		// read-only, and a refused file must stay byte-identical.
		s.Close()
		guard.close()
		return nil, err
	}
	guard.close()
	return s, nil
}

func (s *DB) resolvePath(path string) error {
	if path == MemoryPath {
		if s.readOnly {
			return errors.New("an in-memory database cannot be opened read-only")
		}
		s.path, s.memory = MemoryPath, true
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("resolve database path: %w", err)
	}
	s.path = abs
	if s.readOnly {
		err = checkDatabaseFile(abs)
	} else {
		err = prepareFile(abs)
	}
	if err != nil {
		return err
	}
	if err := checkSidecars(abs); err != nil {
		return err
	}
	// For a one-shot inspection a cleanly closed file is read in place, as
	// on read-only media, so that nothing is left beside it. A reader that
	// follows later writes (tail -f, the web view) must not: SQLite then
	// assumes the file never changes.
	s.immutable = s.inspect && cleanlyClosed(abs)
	if s.opened, err = os.Stat(abs); err != nil {
		return fmt.Errorf("inspect database file: %w", err)
	}
	return nil
}

func (s *DB) openPools() error {
	var err error
	if s.memory {
		// One connection: every pooled connection would otherwise see its
		// own empty in-memory database.
		s.write, err = openPool(s.path, "immediate", s.sync, readWrite, s.lockWait, 1)
		s.read = s.write
		return err
	}
	mode := readWrite
	switch {
	case s.immutable:
		mode = immutableAccess
	case s.readOnly:
		mode = readOnlyAccess
	}
	if s.write, err = openPool(s.path, "immediate", s.sync, mode, s.lockWait, 1); err != nil {
		return err
	}
	s.directURI = directURI(s.path, s.immutable)
	s.read, err = openPool(s.path, "deferred", s.sync, mode, s.lockWait, 4)
	return err
}

// openGuard returns the connection pool the preflight reads through. When
// a -wal already lies beside a file opened for writing, it is a separate
// read-only connection that stays open until the open procedure is over,
// so that a refusal never checkpoints that log into the main file: a
// read-only connection cannot checkpoint, and while it holds its lock no
// other connection of this process is the last one to close. Without a
// -wal there is nothing to checkpoint, and the write pool reads (it must:
// a hot -journal left by a crash needs a writer to roll it back).
func (s *DB) openGuard() (*guardPool, error) {
	if s.memory || s.readOnly || !exists(s.path+place.WALSuffix) {
		return &guardPool{db: s.write}, nil
	}
	db, err := openPool(s.path, "deferred", s.sync, readOnlyAccess, s.lockWait, 1)
	if err != nil {
		return nil, err
	}
	return &guardPool{db: db, owned: true}, nil
}

// guardPool is the preflight's pool and whether Open must close it.
type guardPool struct {
	db    *sql.DB
	owned bool
}

func (g *guardPool) close() {
	if g.owned {
		g.db.Close()
		g.owned = false
	}
}

// initialise runs the open procedure: preflight, migration transaction,
// WAL mode and file modes.
func (s *DB) initialise(ctx context.Context, guard *guardPool) error {
	state, err := s.preflight(ctx, guard.db)
	if err != nil {
		return corruptionOr(ctx, guard.db, err)
	}
	if s.readOnly {
		s.trustTaskCounts(ctx, guard.db)
		return nil
	}
	var roots []legacyRoot
	if state.hasTables && state.userVersion < 2 {
		if roots, err = s.prepareLegacyRoots(ctx, s.write); err != nil {
			return err
		}
	}
	if !state.hasTables || state.userVersion < SchemaVersion {
		if err := s.migrate(ctx, roots); err != nil {
			return corruptionOr(ctx, guard.db, err)
		}
	}
	if s.memory {
		return nil
	}
	// Switching a new file to WAL needs every other connection gone.
	guard.close()
	if err := s.enableWAL(ctx); err != nil {
		return err
	}
	if err := tightenModes(s.path); err != nil {
		return err
	}
	if err := s.CheckSameFile(); err != nil {
		return err
	}
	s.recordVerified(ctx, state.verified)
	s.recordForeignKeysChecked(ctx, state.foreignKeys)
	s.indexLongFile(ctx)
	return nil
}

// dbState is what preflight learned about the file.
type dbState struct {
	applicationID int64
	userVersion   int64
	hasTables     bool
	// verified are the journal heads the preflight verified far enough
	// beyond the file's records to be worth recording (see recordAfter);
	// recordVerified writes them once the open is done.
	verified []store.JournalHead
	// foreignKeys are the rowids the preflight checked each child table's
	// foreign keys up to, when it checked enough rows to be worth
	// recording (see recordForeignKeysAfter).
	foreignKeys foreignKeyMarks
}

// preflight reads the file's identity before anything is written and
// refuses foreign, newer or damaged databases. Every read happens in one
// snapshot, so a concurrent first start that creates the schema is seen
// either not at all or complete.
func (s *DB) preflight(ctx context.Context, pool *sql.DB) (dbState, error) {
	var st dbState
	conn, err := pool.Conn(ctx)
	if err != nil {
		return st, fmt.Errorf("open database connection: %w", err)
	}
	defer conn.Close()
	// One read snapshot for every check: another process may append
	// events meanwhile, and heads read before its commit must be checked
	// against the events of the same moment.
	if _, err := conn.ExecContext(ctx, "BEGIN"); err != nil {
		return st, fmt.Errorf("begin preflight read: %w", err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck // read-only snapshot
	if st.applicationID, err = PragmaInt(ctx, conn, "application_id"); err != nil {
		return st, err
	}
	if st.userVersion, err = PragmaInt(ctx, conn, "user_version"); err != nil {
		return st, err
	}
	if err := checkIdentity(st.applicationID, st.userVersion); err != nil {
		return st, err
	}
	if st.hasTables, err = HasUserTables(ctx, conn); err != nil || !st.hasTables {
		return st, err
	}
	if s.readOnly {
		// Read-only opens serve inspection (verify): they need the legacy
		// tables and report chain validity instead of refusing on it.
		return st, requireColumns(ctx, conn, legacyColumns, incompleteLegacy)
	}
	fk := checkAllForeignKeys
	if st.userVersion == SchemaVersion {
		fk = func(ctx context.Context, q Querier) (err error) {
			st.foreignKeys, err = checkForeignKeysOnOpen(ctx, q)
			return err
		}
	}
	if err := validateShapeWith(ctx, conn, st.userVersion, st.applicationID, fk); err != nil {
		return st, err
	}
	switch {
	case st.userVersion == SchemaVersion:
		st.verified, err = verifyOnOpen(ctx, conn, s.directURI)
		return st, err
	case st.userVersion >= 2:
		return st, verifyAllJournals(ctx, conn, s.directURI)
	}
	return st, nil
}

func checkIdentity(applicationID, userVersion int64) error {
	if applicationID != 0 && applicationID != ApplicationID {
		return collaberr.New(collaberr.DatabaseApplicationMismatch, "The SQLite file belongs to another application; point AGENTOOL_COLLAB_DB at a collab database").
			With("expected_application_id", ApplicationID).With("actual_application_id", applicationID)
	}
	if userVersion > SchemaVersion {
		return collaberr.New(collaberr.DatabaseVersionTooNew, "The database was written by a newer collab release; upgrade this server to open it").
			With("supported_schema_version", SchemaVersion).With("actual_schema_version", userVersion)
	}
	return nil
}

func PragmaInt(ctx context.Context, q Querier, name string) (int64, error) {
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, "PRAGMA "+name).Scan(&v); err != nil || !v.Valid {
		return 0, collaberr.Newf(collaberr.DatabasePragmaUnavailable, "SQLite did not report PRAGMA %s as an integer", name)
	}
	return v.Int64, nil
}

// migrate creates or upgrades the schema in one IMMEDIATE transaction. A
// concurrent opener that loses the race finds schema v3 and only validates.
func (s *DB) migrate(ctx context.Context, roots []legacyRoot) error {
	tx, err := beginImmediate(ctx, s.write, migrationRetryWindow)
	if err != nil {
		return err
	}
	if err := s.migrateIn(ctx, newTx(tx, nil), roots); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit migration: %w", err)
	}
	return nil
}

func (s *DB) migrateIn(ctx context.Context, tx *Tx, roots []legacyRoot) error {
	appID, err := PragmaInt(ctx, tx, "application_id")
	if err != nil {
		return err
	}
	uv, err := PragmaInt(ctx, tx, "user_version")
	if err != nil {
		return err
	}
	if err := checkIdentity(appID, uv); err != nil {
		return err
	}
	hasTables, err := HasUserTables(ctx, tx)
	if err != nil {
		return err
	}
	if !hasTables {
		if err := execAll(ctx, tx, legacySchema); err != nil {
			return err
		}
		roots = nil
	} else if err := validateShape(ctx, tx, uv, appID); err != nil {
		return err
	}
	switch {
	case uv < 2:
		if hasTables && roots == nil {
			// Another process created the legacy tables after our
			// preflight; identities were never prepared. Start again.
			return collaberr.New(collaberr.MigrationSourceChanged, "The database changed while it was being opened; start again")
		}
		err = s.migrateLegacy(ctx, tx, roots)
	case uv == 2:
		err = s.migratePreview(ctx, tx)
	}
	if err != nil {
		return err
	}
	return finishMigration(ctx, tx)
}

// finishMigration validates the v3 result and stamps the file.
func finishMigration(ctx context.Context, tx *Tx) error {
	if err := validateV2Shape(ctx, tx, "coordination_sessions", []int64{2, 3}); err != nil {
		return err
	}
	if err := verifyAllJournals(ctx, tx, ""); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA application_id = %d", ApplicationID)); err != nil {
		return fmt.Errorf("set application_id: %w", err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion)); err != nil {
		return fmt.Errorf("set user_version: %w", err)
	}
	return nil
}

// enableWAL switches the file to write-ahead logging, waiting out writers.
func (s *DB) enableWAL(ctx context.Context) error {
	deadline := time.Now().Add(migrationRetryWindow)
	for attempt := 0; ; attempt++ {
		var mode string
		err := s.write.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
		if err == nil {
			return nil
		}
		if !isBusy(err) || time.Now().After(deadline) {
			return fmt.Errorf("enable WAL: %w", err)
		}
		if err := pause(ctx, backoff(attempt)); err != nil {
			return fmt.Errorf("enable WAL: %w", err)
		}
	}
}
