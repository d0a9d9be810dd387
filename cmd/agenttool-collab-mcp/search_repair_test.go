package main

import (
	"os"
	"testing"
)

// TestARunningServerSurvivesItsSidecarBeingTruncatedInPlace truncates the
// sidecar under a running server, keeping the file (same inode), and
// optionally lets another process rebuild it. The server's next search
// must find the journal's text again instead of failing on missing tables.
func TestARunningServerSurvivesItsSidecarBeingTruncatedInPlace(t *testing.T) {
	for _, c := range []struct {
		name string
		// garbage overwrites the file in place instead of truncating it.
		garbage bool
		// searchFirst has the server search once between the truncation
		// and the other process's rebuild.
		searchFirst, otherRebuild bool
	}{
		{"truncated", false, false, false},
		{"truncated, then rebuilt by another process", false, false, true},
		{"truncated, searched, then rebuilt by another process", false, true, true},
		{"overwritten with garbage", true, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newSandbox(t)
			repo := s.repo("main", map[string]string{"a.txt": "a\n"})
			server := s.start()
			ws := str(ok(t, server, "collab_workspace_open", map[string]any{"root_path": repo, "actor": "ann"}), "workspace.id")
			ok(t, server, "collab_task_create", map[string]any{"workspace_id": ws, "actor": "ann", "idempotency_key": "t1",
				"title": "pangolin survey"})
			search := map[string]any{"workspace_id": ws, "query": "pangolin"}
			if hits, _ := ok(t, server, "collab_search", search)["hits"].([]any); len(hits) != 1 {
				t.Fatalf("before: %d hits", len(hits))
			}
			before, err := os.Stat(s.db + ".search")
			if err != nil {
				t.Fatal(err)
			}
			if err := damageInPlace(s.db+".search", c.garbage); err != nil {
				t.Fatal(err)
			}
			if c.searchFirst {
				if res := call(t, server, "collab_search", search); res.IsError {
					t.Errorf("the first search after truncation fails: %s", res.Raw)
				}
			}
			if c.otherRebuild {
				if out, code := s.searchCLI("--rebuild"); code != 0 {
					t.Fatalf("the other process's rebuild exited %d: %s", code, out)
				}
			}
			res := call(t, server, "collab_search", search)
			if res.IsError {
				t.Fatalf("after truncation the server's search fails: %s", res.Raw)
			}
			if hits, _ := res.Structured["hits"].([]any); len(hits) != 1 {
				t.Fatalf("after truncation: %d hits, want 1", len(hits))
			}
			if after, err := os.Stat(s.db + ".search"); err != nil || after.Size() == 0 {
				t.Fatalf("the sidecar was not rebuilt: %v %v", after, err)
			} else {
				t.Logf("sidecar %d bytes, same file as before: %v", after.Size(), os.SameFile(before, after))
			}
		})
	}
}

// damageInPlace truncates path to nothing, or overwrites every byte with
// garbage, keeping the file itself.
func damageInPlace(path string, garbage bool) error {
	if !garbage {
		return os.Truncate(path, 0)
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	junk := make([]byte, info.Size())
	for i := range junk {
		junk[i] = byte(i*31 + 7)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	if _, err := f.WriteAt(junk, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
