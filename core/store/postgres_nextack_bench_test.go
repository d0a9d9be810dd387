package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/postgres/pgtest"
)

// BenchmarkPostgresNextAndAck is BenchmarkNextAndAck on a PostgreSQL
// journal: one poll and the acknowledgement of its page, a report appended
// before each round, untimed. It is the benchmark of the engine's reads
// ahead (postgres/readahead.go): run it as it is, and again with -tags
// collab_noreadahead, which builds them out, to see their gain.
func BenchmarkPostgresNextAndAck(b *testing.B) {
	b.Setenv("XDG_DATA_HOME", b.TempDir())
	ctx := context.Background()
	st, err := backend.Open(ctx, backend.Options{Path: pgtest.FreshDatabase(b), Observe: fixedObserve})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	ss, err := st.StartSession(ctx, store.StartSessionInput{RootPath: filepath.Join(b.TempDir(), "main"), Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	cred := benchCred(ss)
	version := ss.Session.CursorVersion
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if _, err := st.AppendReport(ctx, cred, benchReport(fmt.Sprintf("r%d", i))); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		next, err := st.NextForSession(ctx, cred, nil, 50)
		if err != nil {
			b.Fatal(err)
		}
		sess, err := st.AckCursor(ctx, cred, ss.Session.WorkspaceID, next.Events.NextAnchor, version)
		if err != nil {
			b.Fatal(err)
		}
		version = sess.CursorVersion
	}
}
