package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/historygen"
)

// historySandbox is a sandbox whose database is a copy of a generated
// history of n events, built (or taken from the cache) under dir; no
// server has opened the copy yet.
func historySandbox(t *testing.T, dir string, n int64) (historygen.Fixture, *sandbox) {
	t.Helper()
	f, err := historygen.Cached(context.Background(), dir, n)
	if err != nil {
		t.Fatal(err)
	}
	s := newSandbox(t)
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		t.Fatal(err)
	}
	copyFile(t, f.DB, s.db)
	return f, s
}
