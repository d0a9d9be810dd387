package tokens_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/tokens"
)

func TestAddStoresOnlyTheHashInAPrivateFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), tokens.FileName)
	tok, err := tokens.Add(path, "alice-laptop", 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tok, tokens.Prefix) || len(tok) < 40 {
		t.Fatalf("token %q is not a long prefixed secret", tok)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), tok) || strings.Contains(string(raw), strings.TrimPrefix(tok, tokens.Prefix)) {
		t.Fatal("token file holds the token itself")
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file mode %v, want 0600", fi.Mode().Perm())
	}
	if _, err := tokens.Add(path, "alice-laptop", 0, time.Now()); err != tokens.ErrExists {
		t.Fatalf("second add of one name: %v, want ErrExists", err)
	}
	if _, err := tokens.Add(path, "../evil", 0, time.Now()); err == nil {
		t.Fatal("a name with a slash was accepted")
	}
}

func TestStoreSeesAddsRevocationsAndExpiryWithoutReopening(t *testing.T) {
	path := filepath.Join(t.TempDir(), tokens.FileName)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := tokens.NewStore(path, func() time.Time { return clock })
	if _, ok := s.Check("collab_anything"); ok {
		t.Fatal("a missing token file admitted someone")
	}
	a, err := tokens.Add(path, "a", 0, clock)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tokens.Add(path, "b", time.Hour, clock)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		token, want string
		ok          bool
	}{{a, "a", true}, {b, "b", true}, {a + "x", "", false}, {"", "", false}}
	for _, c := range cases {
		if got, ok := s.Check(c.token); ok != c.ok || got != c.want {
			t.Errorf("Check(%q) = %q,%v want %q,%v", c.token, got, ok, c.want, c.ok)
		}
	}
	if err := tokens.Revoke(path, "a"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Check(a); ok {
		t.Fatal("a revoked token still admits its client")
	}
	clock = clock.Add(time.Hour)
	if _, ok := s.Check(b); ok {
		t.Fatal("an expired token still admits its client")
	}
	if err := tokens.Revoke(path, "a"); err != tokens.ErrNotFound {
		t.Fatalf("revoking twice: %v, want ErrNotFound", err)
	}
	entries, err := tokens.Read(path)
	if err != nil || len(entries) != 1 || entries[0].Name != "b" || !entries[0].Expired(clock) {
		t.Fatalf("entries after revoke: %+v %v", entries, err)
	}
}

// A token file that is not private to this user admits nobody, Add
// refuses to write through it, and the Store reports each change of
// verdict once, never naming the path.
func TestAnUnsafeTokenFileAdmitsNobodyAndIsReportedOnce(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, tokens.FileName)
	tok, err := tokens.Add(path, "alice", 0, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var reports []error
	s := tokens.NewStore(path, nil)
	s.OnProblem(func(p error) { reports = append(reports, p) })
	if _, ok := s.Check(tok); !ok || len(reports) != 0 {
		t.Fatalf("a private file: admitted %v, reports %v", ok, reports)
	}
	os.Chmod(path, 0o666)
	for range 3 {
		if _, ok := s.Check(tok); ok {
			t.Fatal("a token in a 0666 file admitted its client")
		}
	}
	if len(reports) != 1 || !errors.Is(reports[0], tokens.ErrUnsafeFile) || strings.Contains(reports[0].Error(), dir) {
		t.Fatalf("reports after chmod 666: %v", reports)
	}
	if _, err := tokens.Add(path, "bob", 0, time.Now()); !errors.Is(err, tokens.ErrUnsafeFile) {
		t.Fatalf("Add through a 0666 file: %v", err)
	}
	os.Chmod(path, 0o600)
	if _, ok := s.Check(tok); !ok || len(reports) != 2 || reports[1] != nil {
		t.Fatalf("after chmod 600: reports %v", reports)
	}
	if entries, _ := tokens.Read(path); len(entries) != 1 {
		t.Fatalf("the refused Add wrote: %+v", entries)
	}
}
