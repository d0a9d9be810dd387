package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/store"
)

// BenchmarkRound3Floor sets each hot call through the binary (one server
// process over stdio, one client) beside the same store work run in this
// process: the floor under the call, database and Git included. Both pause
// floorPause between calls, untimed, so both see the same idle pattern
// (statements run markedly slower after an idle wait than back to back,
// and a server always idles for the client's turnaround); the ratio of
// via=binary to via=in-process is issue 41's "near the floor" figure. The
// binary halves also report the server's CPU per call ("cpu-us/op", from
// /proc/<pid>/stat), which a busy shared machine disturbs less than wall
// time. With COLLAB_REFERENCE_CMD set, via=reference runs the same calls
// through the reference's server, for the goals table's reference column.
func BenchmarkRound3Floor(b *testing.B) {
	for _, op := range []struct {
		name      string
		binary    func(b *testing.B, e *benchEnv, i int)
		inProcess func(b *testing.B, f *floorEnv, i int)
	}{
		{"append", binaryAppend, floorAppend},
		{"next-ack", binaryNextAck, floorNextAck},
		{"create-claim", binaryCreateClaim, floorCreateClaim},
	} {
		b.Run("op="+op.name+"/via=binary", func(b *testing.B) {
			benchFloorBinary(b, []string{os.Args[0]}, op.binary)
		})
		if op.name == "create-claim" {
			// The same writes on a file holding the task counts a long
			// file gains: what their triggers add to a task write.
			b.Run("op="+op.name+"/via=binary/counts=kept", func(b *testing.B) {
				benchFloorBinaryOn(b, []string{os.Args[0]}, op.binary, func(e *benchEnv) { giveTaskCounts(b, e.s.db) })
			})
		}
		if ref := referenceCommand(); len(ref) > 0 {
			b.Run("op="+op.name+"/via=reference", func(b *testing.B) { benchFloorBinary(b, ref, op.binary) })
		}
		b.Run("op="+op.name+"/via=in-process", func(b *testing.B) {
			f := newFloorEnv(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				op.inProcess(b, f, i)
				idle(b)
			}
		})
	}
}

// benchFloorBinary times op through the server command argv, pausing
// floorPause between calls, and reports the server's CPU per call.
func benchFloorBinary(b *testing.B, argv []string, op func(b *testing.B, e *benchEnv, i int)) {
	benchFloorBinaryOn(b, argv, op, func(*benchEnv) {})
}

// benchFloorBinaryOn is benchFloorBinary with prepare run on the
// environment, untimed, before the first call.
func benchFloorBinaryOn(b *testing.B, argv []string, op func(b *testing.B, e *benchEnv, i int), prepare func(e *benchEnv)) {
	e := newBenchEnvOf(b, argv)
	prepare(e)
	e.cpu0 = processCPU(b, e.c.Pid())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		op(b, e, i)
		idle(b)
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b, e.c.Pid())-e.cpu0)/float64(b.N), "cpu-us/op")
}

// floorPause is the untimed wait between two calls of either half: long
// against a client's turnaround (tens of microseconds), short against the
// run.
const floorPause = time.Millisecond

// idle waits floorPause with the timer stopped.
func idle(b *testing.B) {
	b.StopTimer()
	time.Sleep(floorPause)
	b.StartTimer()
}

const floorBody = "The parser handles nested quotes; tokenizer tests pass."

func binaryAppend(b *testing.B, e *benchEnv, i int) {
	e.must(b, "collab_report_append", map[string]any{"workspace_id": e.ws, "idempotency_key": fmt.Sprintf("r%d", i),
		"kind": "observation", "body": floorBody, "confidence": "high"})
}

// binaryNextAck times a poll of one event and the ack of its page; the
// reports it reads were appended before the timer started (floorPrefill),
// so the server's CPU counts polls and acks only.
func binaryNextAck(b *testing.B, e *benchEnv, i int) {
	if i == 0 {
		b.StopTimer()
		for j := 0; j < b.N; j++ {
			e.must(b, "collab_report_append", map[string]any{"workspace_id": e.ws, "idempotency_key": fmt.Sprintf("r%d", j),
				"kind": "observation", "body": "progress"})
		}
		e.cpu0 = processCPU(b, e.c.Pid())
		b.StartTimer()
	}
	next := e.must(b, "collab_next", map[string]any{"workspace_id": e.ws, "event_limit": 1})
	acked := e.must(b, "collab_cursor_ack", map[string]any{"workspace_id": e.ws,
		"anchor": get(next, "events.next_anchor"), "expected_cursor_version": e.version})
	e.version, _ = get(acked, "session.cursor_version").(float64)
}

func binaryCreateClaim(b *testing.B, e *benchEnv, i int) {
	id := fmt.Sprintf("t%d", i)
	e.must(b, "collab_task_create", map[string]any{"workspace_id": e.ws, "idempotency_key": "c" + id, "task_id": id,
		"title": "bench", "path_scopes": []any{"src/" + id}})
	e.must(b, "collab_task_claim", map[string]any{"workspace_id": e.ws, "idempotency_key": "k" + id, "task_id": id,
		"expected_version": 1})
}

// floorEnv is a store opened in this process on a sandbox like the
// binary's (a Git repository with one commit, the default durability),
// with a session started on the repository.
type floorEnv struct {
	st      *store.Store
	ss      store.StartedSession
	cred    store.Credential
	version int64
}

func newFloorEnv(b *testing.B) *floorEnv {
	s := newSandbox(b)
	repo := s.repo("main", map[string]string{"src/a.go": "package a\n"})
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Dir(s.db), 0o700); err != nil {
		b.Fatal(err)
	}
	st, err := backend.Open(ctx, backend.Options{Path: s.db})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	ss, err := st.StartSession(ctx, store.StartSessionInput{RootPath: repo, Actor: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	cred := store.Credential{SessionID: ss.Session.ID, Token: ss.Token, Generation: ss.Session.Generation}
	return &floorEnv{st: st, ss: ss, cred: cred, version: ss.Session.CursorVersion}
}

func floorAppend(b *testing.B, f *floorEnv, i int) {
	if _, err := f.st.AppendReport(context.Background(), f.cred, store.AppendReportInput{
		IdempotencyKey: fmt.Sprintf("r%d", i), Kind: "observation", Body: floorBody, Confidence: ptrTo("high")}); err != nil {
		b.Fatal(err)
	}
}

func floorNextAck(b *testing.B, f *floorEnv, i int) {
	ctx := context.Background()
	if i == 0 {
		b.StopTimer()
		for j := 0; j < b.N; j++ {
			if _, err := f.st.AppendReport(ctx, f.cred, store.AppendReportInput{IdempotencyKey: fmt.Sprintf("r%d", j),
				Kind: "observation", Body: "progress"}); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
	}
	next, err := f.st.NextForSession(ctx, f.cred, nil, 1)
	if err != nil {
		b.Fatal(err)
	}
	sess, err := f.st.AckCursor(ctx, f.cred, f.ss.Session.WorkspaceID, next.Events.NextAnchor, f.version)
	if err != nil {
		b.Fatal(err)
	}
	f.version = sess.CursorVersion
}

func floorCreateClaim(b *testing.B, f *floorEnv, i int) {
	ctx := context.Background()
	id := fmt.Sprintf("t%d", i)
	who := store.SessionActor(f.cred)
	ws := f.ss.Session.WorkspaceID
	if _, err := f.st.CreateTask(ctx, who, store.CreateTaskInput{WorkspaceID: ws, IdempotencyKey: "c" + id, TaskID: ptrTo(id),
		Title: "bench", PathScopes: []string{"src/" + id}}); err != nil {
		b.Fatal(err)
	}
	if _, err := f.st.ClaimTask(ctx, who, store.ClaimInput{WorkspaceID: ws, TaskID: id, IdempotencyKey: "k" + id,
		ExpectedVersion: 1}); err != nil {
		b.Fatal(err)
	}
}

func ptrTo[T any](v T) *T { return &v }

// processCPU is the user plus system CPU time of process pid so far, in
// microseconds (fields 14 and 15 of /proc/<pid>/stat, in clock ticks of
// 10 ms on Linux).
func processCPU(b *testing.B, pid int) int64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("read the server's CPU time: %v", err)
	}
	// The command name (field 2) may hold spaces; fields count from after it.
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	var ticks int64
	for _, f := range fields[11:13] {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			b.Fatalf("parse the server's CPU time: %v", err)
		}
		ticks += n
	}
	return ticks * 10000
}

// BenchmarkAckUnchangedCursor times a host's idle round through the
// binary: a poll at the head that finds nothing new and the ack of the
// same anchor again. It guards core/seat/cursor_unchanged.go, which skips
// the credential file's rewrite when the cursor did not move.
func BenchmarkAckUnchangedCursor(b *testing.B) {
	e := newBenchEnv(b)
	e.must(b, "collab_report_append", map[string]any{"workspace_id": e.ws, "idempotency_key": "r0",
		"kind": "observation", "body": "progress"})
	e.cpu0 = processCPU(b, e.c.Pid())
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next := e.must(b, "collab_next", map[string]any{"workspace_id": e.ws, "event_limit": 50})
		acked := e.must(b, "collab_cursor_ack", map[string]any{"workspace_id": e.ws,
			"anchor": get(next, "events.next_anchor"), "expected_cursor_version": e.version})
		e.version, _ = get(acked, "session.cursor_version").(float64)
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU(b, e.c.Pid())-e.cpu0)/float64(b.N), "cpu-us/op")
}
