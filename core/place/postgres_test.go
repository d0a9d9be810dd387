package place_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/place"
)

func TestIsPostgresAcceptsBothSchemesInAnyCaseAndNothingElse(t *testing.T) {
	cases := []struct {
		setting string
		want    bool
	}{
		{"postgres://h/db", true},
		{"postgresql://h/db", true},
		{"POSTGRES://h/db", true},
		{"PostgreSQL://u:p@h:5432/db?sslmode=require", true},
		{"postgres:///db", true},
		{"postgres:/h/db", false},
		{"postgres.sqlite", false},
		{"./postgres://x", false},
		{"/data/collab.sqlite", false},
		{"host=h dbname=db", false},
		{":memory:", false},
		{"", false},
		{"mysql://h/db", false},
	}
	for _, tc := range cases {
		if got := place.IsPostgres(tc.setting); got != tc.want {
			t.Errorf("IsPostgres(%q) = %v, want %v", tc.setting, got, tc.want)
		}
	}
}

func TestRedactPostgresRemovesEveryPasswordAndKeepsTheRest(t *testing.T) {
	cases := []struct{ in, want string }{
		{"postgres://alice:s3cret@db.example:5432/collab", "postgres://alice@db.example:5432/collab"},
		{"postgresql://alice@db.example/collab", "postgresql://alice@db.example/collab"},
		{"postgres://alice:s3cret@/collab?host=/run/pg&sslmode=disable", "postgres://alice@/collab?host=/run/pg&sslmode=disable"},
		{"postgres://db/collab?user=alice&password=s3cret&sslmode=verify-full", "postgres://db/collab?user=alice&sslmode=verify-full"},
		{"postgres://db/collab?sslpassword=s3cret&PASSWORD=s3cret", "postgres://db/collab"},
		{"postgres://db/collab?a=1;password=s3cret", "postgres://db/collab?a=1"},
		{"postgres://alice:s3cret@db/collab#s3cret", "postgres://alice@db/collab"},
		{"postgres://alice:s3cret@db:notaport/collab?password=s3cret", "postgres://db:notaport/collab"},
	}
	for _, tc := range cases {
		got := place.RedactPostgres(tc.in)
		if got != tc.want {
			t.Errorf("RedactPostgres(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if strings.Contains(got, "s3cret") {
			t.Errorf("RedactPostgres(%q) keeps the password: %q", tc.in, got)
		}
	}
}

func TestPostgresFolderIsDeterministicPrivateOfSecretsAndPerServer(t *testing.T) {
	env := place.Map("linux", map[string]string{"HOME": "/home/me"}, "/work")
	folder := func(url string) string {
		t.Helper()
		dir, err := place.PostgresFolder(env, url)
		if err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a := folder("postgres://alice:s3cret@db.example:5432/collab")
	if filepath.Dir(a) != "/home/me/.local/share/agenttool/postgres" {
		t.Errorf("folder %s is not in the data home's agenttool/postgres", a)
	}
	if !strings.HasPrefix(filepath.Base(a), "db.example-5432-collab-") || strings.Contains(a, "s3cret") {
		t.Errorf("folder name %s: want db.example-5432-collab-<hash>, no password", a)
	}
	same := []string{
		"postgres://alice:other@db.example:5432/collab",
		"POSTGRESQL://alice@db.example:5432/collab",
		"postgres://alice@db.example:5432/collab?password=s3cret",
	}
	for _, u := range same {
		if got := folder(u); got != a {
			t.Errorf("%s: folder %s, want %s (only the password or scheme differs)", u, got, a)
		}
	}
	differ := []string{
		"postgres://alice@db.example:5433/collab",
		"postgres://alice@db2.example:5432/collab",
		"postgres://alice@db.example:5432/other",
		"postgres://bob@db.example:5432/collab",
	}
	for _, u := range differ {
		if got := folder(u); got == a {
			t.Errorf("%s shares the folder of another journal: %s", u, got)
		}
	}
	xdg := place.Map("linux", map[string]string{"HOME": "/home/me", "XDG_DATA_HOME": "/xdg"}, "/work")
	if dir, err := place.PostgresFolder(xdg, "postgres:///collab"); err != nil || !strings.HasPrefix(dir, "/xdg/agenttool/postgres/default-default-collab-") {
		t.Errorf("with XDG_DATA_HOME: %s, %v", dir, err)
	}
	sock, _ := place.PostgresFolder(env, "postgres://u@/collab?host=/run/postgresql")
	if !strings.HasPrefix(filepath.Base(sock), "run-postgresql-default-collab-") {
		t.Errorf("a socket host names the folder %s", sock)
	}
}

func TestBesideAPostgresJournalUsesItsLocalFolder(t *testing.T) {
	env := place.Map("linux", map[string]string{"HOME": "/home/me"}, "/work")
	url := "postgres://alice:s3cret@db.example/collab"
	b, err := place.BesideDatabaseIn(env, url)
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := place.PostgresFolder(env, url)
	if !b.Postgres() || b.Dir() != dir || b.Database() != "postgres://alice@db.example/collab" {
		t.Fatalf("Beside = pg %v dir %s db %s", b.Postgres(), b.Dir(), b.Database())
	}
	want := map[string]string{
		"CredentialFile": filepath.Join(dir, "collab-sessions", "s1.json"),
		"TokensFile":     filepath.Join(dir, "collab-tokens.json"),
		"ResumeDir":      filepath.Join(dir, "collab-remote"),
		"SearchIndex":    filepath.Join(dir, "collab.search"),
		"WAL":            "", "SHM": "", "RollbackJournal": "",
	}
	got := map[string]string{
		"CredentialFile": b.CredentialFile("s1"), "TokensFile": b.TokensFile(), "ResumeDir": b.ResumeDir(),
		"SearchIndex": b.SearchIndex(), "WAL": b.WAL(), "SHM": b.SHM(), "RollbackJournal": b.RollbackJournal(),
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %q, want %q", k, got[k], w)
		}
	}
	if _, err := place.BesideDatabaseIn(place.Map("linux", nil, "/work"), url); err == nil {
		t.Error("without a home directory the local folder was placed anyway")
	}
}

func TestLocalDirOverridesThePostgresFolder(t *testing.T) {
	cases := []struct {
		name, value, want string
	}{
		{"absolute", "/srv/collab-local", "/srv/collab-local"},
		{"relative to the working directory", "local", "/work/local"},
		{"unclean", "/srv//x/../collab", "/srv/collab"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := place.Map("linux", map[string]string{"HOME": "/home/me", place.EnvLocalDir: tc.value}, "/work")
			got, err := place.PostgresFolder(env, "postgres://alice:s3cret@db.example/collab")
			if err != nil || got != tc.want {
				t.Fatalf("PostgresFolder = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	env := place.Map("linux", map[string]string{"HOME": "/home/me", place.EnvLocalDir: ""}, "/work")
	if got, _ := place.PostgresFolder(env, "postgres://db.example/collab"); !strings.HasPrefix(got, "/home/me/.local/share/agenttool/postgres/") {
		t.Fatalf("an empty %s moved the folder to %s", place.EnvLocalDir, got)
	}
}
