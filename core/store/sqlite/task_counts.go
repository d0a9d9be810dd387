package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"github.com/agenttool/collab/core/store"
)

// collab_workspace_status shows how many tasks a workspace has completed,
// and counting them walks one index entry per completed task: 57,051 of
// them, 79 % of the call's CPU, in a generated journal of a million
// events. Once a file holds many completed tasks, its open gives it a
// table of per-(workspace, status) counts and triggers on tasks that keep
// it exact. Triggers run inside every writer's transaction, the
// reference's included, so the count stays exact whoever writes, and the
// read is one row. A file with fewer completed tasks never gains them (it
// keeps the reference's schema); a copy leaves the table behind (the
// target's triggers, or its next open, keep the target's).

// TaskCountsTable names the table of task counts per workspace and stored
// status. It describes this file only (layout.SQLiteRecord): a copy
// leaves it behind.
const TaskCountsTable = "collab_task_counts"

// The triggers that keep TaskCountsTable exact. An update trigger fires
// only when a row's workspace or status changes, so the many task writes
// that leave both as they were (progress, lease renewals) pay one WHEN.
const (
	taskCountsInsert = "collab_task_counts_insert"
	taskCountsUpdate = "collab_task_counts_update"
	taskCountsDelete = "collab_task_counts_delete"
)

// taskCountsTriggers are the triggers' names and the text SQLite stores
// for each (sqlite_master.sql): a file is trusted only with all three as
// written here. The UPSERT they use needs SQLite 3.24 (2018); bun 1.3.5
// and modernc.org/sqlite bundle later ones.
var taskCountsTriggers = []struct{ name, ddl string }{
	{taskCountsInsert, `CREATE TRIGGER collab_task_counts_insert AFTER INSERT ON tasks
BEGIN
  INSERT INTO collab_task_counts (workspace_id, status, n) VALUES (new.workspace_id, new.status, 1)
    ON CONFLICT (workspace_id, status) DO UPDATE SET n = n + 1;
END`},
	{taskCountsUpdate, `CREATE TRIGGER collab_task_counts_update AFTER UPDATE OF workspace_id, status ON tasks
WHEN old.workspace_id IS NOT new.workspace_id OR old.status IS NOT new.status
BEGIN
  UPDATE collab_task_counts SET n = n - 1 WHERE workspace_id = old.workspace_id AND status = old.status;
  INSERT INTO collab_task_counts (workspace_id, status, n) VALUES (new.workspace_id, new.status, 1)
    ON CONFLICT (workspace_id, status) DO UPDATE SET n = n + 1;
END`},
	{taskCountsDelete, `CREATE TRIGGER collab_task_counts_delete AFTER DELETE ON tasks
BEGIN
  UPDATE collab_task_counts SET n = n - 1 WHERE workspace_id = old.workspace_id AND status = old.status;
END`},
}

// TaskCountsDDL creates the table, fills it from tasks and creates its
// triggers: run in one transaction, no write falls between the fill and
// the triggers.
var TaskCountsDDL = func() []string {
	out := []string{`CREATE TABLE collab_task_counts (
  workspace_id TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (workspace_id, status)
)`, `INSERT INTO collab_task_counts (workspace_id, status, n)
SELECT workspace_id, status, count(*) FROM tasks GROUP BY workspace_id, status`}
	for _, tr := range taskCountsTriggers {
		out = append(out, tr.ddl)
	}
	return out
}()

// taskCountsAfter is how many completed tasks make an open add the
// counts. Counting costs about 98 ns an index entry, so below it a count
// costs under 0.1 ms, within the 1.2x a status call on a 1,000-event
// journal (1.15 to 1.4 ms) may grow by; at 4,096 a file just short of the
// threshold would spend 0.4 ms on it. Below it a file keeps the
// reference's schema, and its task writes run no trigger.
const taskCountsAfter = 1024

// taskCountsRows is a SELECT of one row per completed task.
const taskCountsRows = "SELECT 1 FROM tasks WHERE status = 'completed'"

// taskCountsNames are the schema objects of the counts, for the one
// sqlite_master read of an open.
func taskCountsNames() []string {
	out := []string{TaskCountsTable}
	for _, tr := range taskCountsTriggers {
		out = append(out, tr.name)
	}
	return out
}

// countsState is what the file holds of the counts.
type countsState int

const (
	countsAbsent  countsState = iota // neither the table nor any trigger
	countsTrusted                    // the table and every trigger as written here
	countsStale                      // anything else: a count no trigger kept
)

// countsOf judges the counts from the file's schema objects (name to
// sqlite_master.sql).
func countsOf(objects map[string]string) countsState {
	_, table := objects[TaskCountsTable]
	found, exact := 0, 0
	for _, tr := range taskCountsTriggers {
		if text, ok := objects[tr.name]; ok {
			found++
			if text == tr.ddl {
				exact++
			}
		}
	}
	switch {
	case !table && found == 0:
		return countsAbsent
	case table && exact == len(taskCountsTriggers):
		return countsTrusted
	default:
		return countsStale
	}
}

// ensureTaskCounts gives a file with after completed tasks the
// counts, and rebuilds stale ones (a trigger dropped or altered, or
// tasks rebuilt, which drops its triggers): the count they hold is not
// trusted. A short file's stale counts are dropped, leaving the
// reference's schema. It records whether the file's counts can be read.
func (s *DB) ensureTaskCounts(ctx context.Context, objects map[string]string, after int) error {
	state := countsOf(objects)
	if state == countsTrusted {
		s.taskCounts = true
		return nil
	}
	var n int
	if err := s.write.QueryRowContext(ctx, "SELECT count(*) FROM ("+taskCountsRows+" LIMIT ?)", after).Scan(&n); err != nil {
		return fmt.Errorf("count the completed tasks: %w", err)
	}
	long := n >= after
	s.taskCounts = false
	if !long && state == countsAbsent {
		return nil
	}
	if err := s.rebuildTaskCounts(ctx, long); err != nil {
		return err
	}
	s.taskCounts = long
	return nil
}

// trustTaskCounts lets a read-only store read the counts a writing open
// left kept by their triggers; it adds or repairs nothing. Best effort:
// a file it cannot read them from counts the rows.
func (s *DB) trustTaskCounts(ctx context.Context, q Querier) {
	if objects, err := schemaObjects(ctx, q, taskCountsNames()); err == nil {
		s.taskCounts = countsOf(objects) == countsTrusted
	}
}

// rebuildTaskCounts drops whatever the file holds of the counts and, when
// fill, creates and fills them, in one write transaction; a process that
// installed them meanwhile leaves nothing to do.
func (s *DB) rebuildTaskCounts(ctx context.Context, fill bool) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin the task counts: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // committed below
	objects, err := schemaObjects(ctx, tx, taskCountsNames())
	if err != nil {
		return err
	}
	switch state := countsOf(objects); {
	case fill && state == countsTrusted, !fill && state == countsAbsent:
		return nil
	}
	drop := []string{}
	for _, tr := range taskCountsTriggers {
		drop = append(drop, "DROP TRIGGER IF EXISTS "+tr.name)
	}
	drop = append(drop, "DROP TABLE IF EXISTS "+TaskCountsTable)
	stmts := drop
	if fill {
		stmts = append(stmts, TaskCountsDDL...)
	}
	for _, stmt := range stmts {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("build the task counts: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit the task counts: %w", err)
	}
	return nil
}

// countedTasksQuery reads a count from TaskCountsTable, and whether the
// three triggers are still in place as written: a count no trigger kept
// since (another writer may have dropped or rebuilt one after this open)
// is not read.
var countedTasksQuery = func() string {
	var b strings.Builder
	b.WriteString("SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'tasks' AND (")
	for i, tr := range taskCountsTriggers {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString("(name = " + quote(tr.name) + " AND sql = " + quote(tr.ddl) + ")")
	}
	b.WriteString(")) = " + strconv.Itoa(len(taskCountsTriggers)) +
		", coalesce((SELECT n FROM collab_task_counts WHERE workspace_id = ? AND status = ?), 0)")
	return b.String()
}()

// quote is s as an SQL string literal.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// CountTasks counts the tasks stored with status (see
// store.Tasks.CountTasks): from TaskCountsTable when the file's open
// found it kept by its triggers and they are still there, and by counting
// the rows otherwise.
func (t *Tx) CountTasks(ctx context.Context, workspaceID string, status store.TaskStatus) (int, error) {
	if t.counted {
		var kept bool
		var n int
		err := t.QueryRowContext(ctx, countedTasksQuery, workspaceID, string(status)).Scan(&kept, &n)
		if err == nil && kept {
			return n, nil
		}
	}
	return t.Tx.CountTasks(ctx, workspaceID, status)
}

// schemaObjects maps each of names the file's schema holds (a table,
// index or trigger) to its sqlite_master.sql.
func schemaObjects(ctx context.Context, q Querier, names []string) (map[string]string, error) {
	args := make([]any, len(names))
	marks := make([]byte, 0, 3*len(names))
	for i, name := range names {
		args[i] = name
		if i > 0 {
			marks = append(marks, ", "...)
		}
		marks = append(marks, '?')
	}
	rows, err := q.QueryContext(ctx, "SELECT name, sql FROM sqlite_master WHERE name IN ("+string(marks)+")", args...)
	if err != nil {
		return nil, fmt.Errorf("read the file's schema objects: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var name string
		var text sql.NullString
		if err := rows.Scan(&name, &text); err != nil {
			return nil, fmt.Errorf("read the file's schema objects: %w", err)
		}
		out[name] = text.String
	}
	return out, rows.Err()
}
