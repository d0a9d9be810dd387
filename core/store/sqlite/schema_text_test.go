package sqlite

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The goldens of testdata/schema-text are the schema the reference
// (@agenttool/collab 0.4.0) leaves in sqlite_master: once for a database it
// creates, once for each fixture it opens (and, for the pre-0.3 ones,
// migrates). They are produced by running the reference, never written by
// hand: with COLLAB_REFERENCE_CMD set, TestSchemaTextGoldensAreTheReferences
// compares them with a fresh run, and UPDATE_SCHEMA_TEXT=1 rewrites them.
const (
	referenceCmdEnv  = "COLLAB_REFERENCE_CMD"
	updateSchemaText = "UPDATE_SCHEMA_TEXT"
	schemaTextDir    = "testdata/schema-text"
	fixturesDir      = "../testdata/fixtures"
)

// schemaTextCases names each golden and the fixture it starts from ("" is
// a database that does not exist yet).
var schemaTextCases = []struct{ name, fixture string }{
	{"fresh", ""},
	{"v0.1.0-migrated", "versions/v0.1.0"},
	{"v0.2.0-migrated", "versions/v0.2.0"},
	{"partitioned-v0.1.0-migrated", "legacy/partitioned-v0.1.0"},
	{"v0.3.0-opened", "versions/v0.3.0"},
	{"v0.3.1-opened", "versions/v0.3.1"},
	{"v0.4.0-opened", "versions/v0.4.0"},
}

// TestSchemaTextIsTheReferences opens a new database and a copy of every
// fixture with this implementation and requires the rows of
// `SELECT type, name, sql FROM sqlite_master ORDER BY name` to equal,
// byte for byte, those the reference leaves (testdata/schema-text).
func TestSchemaTextIsTheReferences(t *testing.T) {
	for _, tc := range schemaTextCases {
		t.Run(tc.name, func(t *testing.T) {
			path := stageSchemaCase(t, tc.fixture)
			db, err := Open(context.Background(), Options{Path: path})
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			db.Close()
			requireSameDump(t, schemaDump(t, path), readGolden(t, tc.name))
		})
	}
}

// TestSchemaTextGoldensAreTheReferences runs the reference on the same
// inputs and requires it to leave exactly the committed goldens (or, with
// UPDATE_SCHEMA_TEXT=1, rewrites them from what it left).
func TestSchemaTextGoldensAreTheReferences(t *testing.T) {
	argv := strings.Fields(os.Getenv(referenceCmdEnv))
	if len(argv) == 0 {
		t.Skipf("set %s to the reference server command to check (or, with %s=1, rewrite) the schema goldens",
			referenceCmdEnv, updateSchemaText)
	}
	for _, tc := range schemaTextCases {
		t.Run(tc.name, func(t *testing.T) {
			path := stageSchemaCase(t, tc.fixture)
			runReferenceOnce(t, argv, path)
			got := schemaDump(t, path)
			golden := filepath.Join(schemaTextDir, tc.name+".jsonl")
			if os.Getenv(updateSchemaText) == "1" {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			requireSameDump(t, got, readGolden(t, tc.name))
		})
	}
}

// TestOpenAcceptsTheEarlierSchemaText rebuilds a database whose schema
// text is what this implementation wrote before it adopted the
// reference's layout (testdata/schema-text/earlier-collab-fresh.jsonl),
// and requires that it opens, keeps its text, and still enforces its
// write guards: the shape checks compare columns and trigger content,
// never whitespace.
func TestOpenAcceptsTheEarlierSchemaText(t *testing.T) {
	ctx := context.Background()
	earlier := readGolden(t, "earlier-collab-fresh")
	if bytes.Equal(earlier, readGolden(t, "fresh")) {
		t.Fatal("the earlier schema text golden equals the reference's; it no longer tests anything")
	}
	path := filepath.Join(t.TempDir(), "collab.sqlite")
	rebuildFromDump(t, path, earlier)
	db, err := Open(ctx, Options{Path: path})
	if err != nil {
		t.Fatalf("a database with the earlier schema text no longer opens: %v", err)
	}
	db.Close()
	requireSameDump(t, schemaDump(t, path), earlier)
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	_, err = raw.ExecContext(ctx, `INSERT INTO tasks (id, workspace_id, title, status, dependencies_json, path_scopes_json,
version, created_at, updated_at, coordination_mode) VALUES ('t', 'w', 't', 'open', '[]', '[]', 1, 'x', 'x', 'session_v2')`)
	if err == nil || !strings.Contains(err.Error(), guardAbortMessage) {
		t.Fatalf("the earlier write guard let an unguarded session_v2 insert through: %v", err)
	}
}

// stageSchemaCase returns the database path of one case in a private
// directory: a copy of the fixture's collab.sqlite, or a path not yet
// created.
func stageSchemaCase(t *testing.T, fixture string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, "collab.sqlite")
	if fixture == "" {
		return dst
	}
	src, err := os.ReadFile(filepath.Join(fixturesDir, fixture, "collab.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, src, 0o600); err != nil {
		t.Fatal(err)
	}
	return dst
}

// schemaDump renders `SELECT type, name, sql FROM sqlite_master ORDER BY
// name` one row per line as a JSON array; a NULL sql is null. JSON keeps
// every byte of the text visible (newlines and spaces included).
func schemaDump(t *testing.T, path string) []byte {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("SELECT type, name, sql FROM sqlite_master ORDER BY name")
	if err != nil {
		t.Fatalf("read sqlite_master: %v", err)
	}
	defer rows.Close()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for rows.Next() {
		var typ, name string
		var text sql.NullString
		if err := rows.Scan(&typ, &name, &text); err != nil {
			t.Fatal(err)
		}
		row := []any{typ, name, nil}
		if text.Valid {
			row[2] = text.String
		}
		if err := enc.Encode(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readGolden(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(schemaTextDir, name+".jsonl"))
	if err != nil {
		t.Fatalf("golden %s: %v (regenerate with %s and %s=1)", name, err, referenceCmdEnv, updateSchemaText)
	}
	return b
}

// requireSameDump fails on the first differing row of two dumps.
func requireSameDump(t *testing.T, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	g, w := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
	for i := range max(len(g), len(w)) {
		var a, b []byte
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("sqlite_master row %d differs (%d rows here, %d in the golden):\n got %s\nwant %s",
				i+1, len(g)-1, len(w)-1, a, b)
		}
	}
}

// rebuildFromDump creates, at path, a current-version database whose
// schema objects carry exactly the text of dump: tables, then indexes,
// then triggers, then the version stamps a migration leaves.
func rebuildFromDump(t *testing.T, path string, dump []byte) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var stmts [3][]string
	for _, line := range bytes.Split(bytes.TrimSpace(dump), []byte("\n")) {
		var row []*string
		if err := json.Unmarshal(line, &row); err != nil || len(row) != 3 {
			t.Fatalf("bad dump row %s: %v", line, err)
		}
		if row[2] == nil {
			continue // an automatic index
		}
		order := map[string]int{"table": 0, "index": 1, "trigger": 2}[*row[0]]
		stmts[order] = append(stmts[order], *row[2])
	}
	all := append(append(stmts[0], stmts[1]...), stmts[2]...)
	all = append(all,
		fmt.Sprintf("INSERT INTO schema_migrations (version, protocol, applied_at) VALUES (2, '%s', 'x'), (3, '%[1]s', 'x')", migrationProtocol),
		fmt.Sprintf("PRAGMA application_id = %d", ApplicationID),
		fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
	for _, stmt := range all {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
}

// runReferenceOnce starts the reference server on path, completes the MCP
// initialize exchange (the reference opens, and migrates, its database
// before it answers) and ends it by closing its input.
func runReferenceOnce(t *testing.T, argv []string, path string) {
	t.Helper()
	home := filepath.Dir(path)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_DATA_HOME=" + filepath.Join(home, "xdg"),
		"AGENTOOL_COLLAB_DB=" + path}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the reference: %v", err)
	}
	io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",`+
		`"capabilities":{},"clientInfo":{"name":"schema-text","version":"1"}}}`+"\n")
	answered := make(chan bool, 1)
	go func() {
		line, err := bufio.NewReader(stdout).ReadString('\n')
		answered <- err == nil && strings.Contains(line, `"result"`)
		io.Copy(io.Discard, stdout)
	}()
	var problem string
	select {
	case ok := <-answered:
		if !ok {
			problem = "the reference did not answer initialize"
		}
	case <-time.After(60 * time.Second):
		problem = "the reference did not answer initialize within 60 s"
		cmd.Process.Kill()
	}
	stdin.Close()
	waitErr := cmd.Wait()
	if problem != "" {
		t.Fatalf("%s (exit: %v); stderr: %s", problem, waitErr, stderr.String())
	}
}
