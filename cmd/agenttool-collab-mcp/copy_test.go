package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

var copyFixture = filepath.Join("..", "..", "core", "store", "testdata", "fixtures", "versions", "v0.4.0", "collab.sqlite")

// copyReport is the --json output of copy.
type copyReport struct {
	From           string `json:"from"`
	To             string `json:"to"`
	Rows           int64  `json:"rows"`
	Events         int64  `json:"events"`
	Workspaces     int    `json:"workspaces"`
	ChainsVerified int    `json:"chains_verified"`
	Replaced       bool   `json:"replaced"`
	Error          string `json:"error"`
}

// runCopy runs `copy args...` in a real process of this binary.
func runCopy(t *testing.T, args ...string) (copyReport, string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"copy", "--json"}, args...)...)
	cmd.Env = inherited(serveEnv + "=1")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	var r copyReport
	if jerr := json.Unmarshal(out.Bytes(), &r); jerr != nil {
		t.Fatalf("copy printed no JSON (%v): %s\n%s", jerr, out.String(), errOut.String())
	}
	return r, errOut.String(), code
}

// TestCopyCommandThroughPostgresAndBack runs the binary twice, SQLite to
// PostgreSQL and back, then verify on the result; a third run into the
// now non-empty database is refused with exit 1.
func TestCopyCommandThroughPostgresAndBack(t *testing.T) {
	url := copyTestDatabase(t)
	src := copyTo(t, copyFixture, t.TempDir())
	there, stderr, code := runCopy(t, "--from", src, "--to", url)
	if code != 0 || there.Events != 74 || there.Workspaces != 2 || there.ChainsVerified != 2 || there.Rows == 0 {
		t.Fatalf("to PostgreSQL: exit %d, %+v\n%s", code, there, stderr)
	}
	back := filepath.Join(t.TempDir(), "back.sqlite")
	again, stderr, code := runCopy(t, "--from", url, "--to", back)
	if code != 0 || again.Rows != there.Rows || again.Events != there.Events {
		t.Fatalf("back to SQLite: exit %d, %+v (there: %+v)\n%s", code, again, there, stderr)
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"verify", "--db", back}, strings.NewReader(""), &out, &errOut); code != 0 {
		t.Fatalf("verify of the round trip: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	refused, _, code := runCopy(t, "--from", src, "--to", url)
	if code != 1 || !strings.Contains(refused.Error, "already holds a collab journal") || !strings.Contains(refused.Error, "--replace") {
		t.Fatalf("into a non-empty target: exit %d, %+v", code, refused)
	}
	replaced, _, code := runCopy(t, "--from", src, "--to", url, "--replace")
	if code != 0 || !replaced.Replaced || replaced.Rows != there.Rows {
		t.Fatalf("--replace: exit %d, %+v", code, replaced)
	}
}

// TestCopyCommandLine checks the command line's contract without a
// server: help, usage errors, a refused copy, and a SQLite copy.
func TestCopyCommandLine(t *testing.T) {
	src := copyTo(t, copyFixture, t.TempDir())
	dst := filepath.Join(t.TempDir(), "copy.sqlite")
	cases := []struct {
		name string
		args []string
		code int
		want string // in stdout+stderr
	}{
		{"help", []string{"-h"}, 0, "replace the target's journal"},
		{"unknown flag", []string{"--frm", src}, 2, "flag provided but not defined"},
		{"missing --to", []string{"--from", src}, 2, "both --from and --to are required"},
		{"positional argument", []string{"--from", src, "--to", dst, "extra"}, 2, "unexpected argument"},
		{"same database", []string{"--from", src, "--to", src}, 1, "same database"},
		{"sqlite to sqlite", []string{"--from", src, "--to", dst}, 0, "2 chain(s) verified"},
		{"into the copy again", []string{"--from", src, "--to", dst}, 1, "run again with --replace"},
		{"with a password", []string{"--from", "postgres://u:hunter2pw@127.0.0.1:1/x?connect_timeout=5", "--to", dst}, 2,
			"postgres://u@127.0.0.1:1/x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), append([]string{"copy"}, tc.args...), strings.NewReader(""), &out, &errOut)
			all := out.String() + errOut.String()
			if code != tc.code || !strings.Contains(strings.ReplaceAll(all, "\n", " "), tc.want) {
				t.Fatalf("exit %d (want %d), output lacks %q:\n%s", code, tc.code, tc.want, all)
			}
			if strings.Contains(all, "hunter2pw") {
				t.Fatalf("the password is shown:\n%s", all)
			}
		})
	}
}

// copyTestDatabase creates an empty database on the COLLAB_TEST_POSTGRES
// server, dropped when the test ends; it skips without a server, except
// in CI, where that fails.
func copyTestDatabase(t *testing.T) string {
	t.Helper()
	url := os.Getenv("COLLAB_TEST_POSTGRES")
	if url == "" {
		msg := "COLLAB_TEST_POSTGRES is not set: start a throwaway server with `eval \"$(.ci/postgres start)\"` to run the copy process test"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	admin := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { admin.Close() })
	var b [6]byte
	rand.Read(b[:])
	name := "collab_cli_copy_" + hex.EncodeToString(b[:])
	if _, err := admin.Exec("CREATE DATABASE " + name + " TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)") })
	u, err := neturl.Parse(url)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}
