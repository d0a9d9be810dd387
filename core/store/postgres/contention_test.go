package postgres

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/store"
	"github.com/agenttool/collab/core/store/storetest"
)

// The contention checks: many writers, in goroutines, in several engines
// of one process and in several OS processes, append to one workspace and
// race for one task, the way sessions on many machines do. Every write is
// shaped like a rule's: reads (the idempotency receipt, the task) well
// before it reads the head, so its snapshot is old by the time the head is
// free. Every key is submitted by two writers at once. The journal must
// come out contiguous and verified, each key appended once with one
// receipt, and the task claimed by exactly one writer.

const (
	contentionWS   = "ws_contention"
	contentionTask = "task_contended"
	contentionAt   = "2026-01-01T00:00:00.000Z"
)

// errLostClaim is a claimant's refusal: the task was no longer open.
var errLostClaim = errors.New("the task was claimed by another writer")

// setUpContention creates the workspace and its open task.
func setUpContention(t *testing.T, e store.Engine) {
	t.Helper()
	ctx := context.Background()
	if err := e.Write(ctx, func(tx store.Tx) error {
		if err := tx.CreateWorkspace(ctx, store.NewWorkspace{ID: contentionWS, EpochID: "epoch_contention",
			RootPath: "/contention", Name: "contention", RepositoryKey: "local-path:contention", CreatedAt: contentionAt}); err != nil {
			return err
		}
		return tx.InsertTask(ctx, store.NewTask{ID: contentionTask, WorkspaceID: contentionWS, Title: "contended",
			PathScopes: []string{"src"}, CreatedAt: contentionAt})
	}); err != nil {
		t.Fatal(err)
	}
}

// appendOnce appends the event of key unless its receipt exists, and
// records the receipt, in one write transaction.
func appendOnce(ctx context.Context, e store.Engine, key string) error {
	return e.Write(ctx, func(tx store.Tx) error {
		scope := store.ReceiptScope{WorkspaceID: contentionWS, Actor: "contention", Key: key}
		if _, found, err := tx.FindReceipt(ctx, scope); err != nil || found {
			return err
		}
		if _, _, err := tx.Task(ctx, contentionWS, contentionTask); err != nil {
			return err
		}
		if err := appendAtHead(ctx, tx, contentionWS, key); err != nil {
			return err
		}
		return tx.InsertReceipt(ctx, scope, store.Receipt{Operation: "append", RequestHash: key,
			Response: []byte(`{"key":"` + key + `"}`)}, contentionAt)
	})
}

// claimOnce claims the task for who when it is still open, appending the
// claim to the journal in the same transaction; errLostClaim otherwise.
func claimOnce(ctx context.Context, e store.Engine, who string) error {
	return e.Write(ctx, func(tx store.Tx) error {
		task, found, err := tx.Task(ctx, contentionWS, contentionTask)
		if err != nil {
			return err
		}
		if !found || task.Status != store.TaskOpen || task.Version != 1 {
			return errLostClaim
		}
		if err := appendAtHead(ctx, tx, contentionWS, "claim_"+who); err != nil {
			return err
		}
		claimed, lease, expires := task, "lease_"+who, "2026-01-01T01:00:00.000Z"
		claimed.Status, claimed.Assignee, claimed.LeaseID, claimed.LeaseExpiresAt = store.TaskClaimed, &who, &lease, &expires
		claimed.Version, claimed.UpdatedAt = task.Version+1, contentionAt
		return tx.UpdateTask(ctx, task, claimed)
	})
}

// contend is one writer: one claim for who, then every key of keys
// appended once. It returns whether who won the claim.
func contend(ctx context.Context, e store.Engine, who string, keys []string) (won bool, err error) {
	switch err := claimOnce(ctx, e, who); {
	case err == nil:
		won = true
	case !errors.Is(err, errLostClaim):
		return false, fmt.Errorf("claim for %s: %w", who, err)
	}
	for _, key := range keys {
		if err := appendOnce(ctx, e, key); err != nil {
			return false, fmt.Errorf("append %s: %w", key, err)
		}
	}
	return won, nil
}

// writerKeys gives writer w its keys: keys are numbered per pair of
// writers, so writers 2k and 2k+1 submit the same keys in the same order,
// as a client retrying through two servers would, and meet on each.
func writerKeys(w, perWriter int) []string {
	keys := make([]string, perWriter)
	for i := range keys {
		keys[i] = "key_" + strconv.Itoa(w/2) + "_" + strconv.Itoa(i)
	}
	return keys
}

// checkContention checks the journal after writers writers ran with
// perWriter keys each and the claim winners (who) they reported.
func checkContention(t *testing.T, e store.Engine, writers, perWriter int, winners []string) {
	t.Helper()
	if len(winners) != 1 {
		t.Fatalf("claim winners %v, want exactly one", winners)
	}
	ctx := context.Background()
	wantKeys := (writers + 1) / 2 * perWriter
	var events []journal.Event
	var h store.JournalHead
	var task store.Task
	receipts := 0
	if err := e.Read(ctx, func(tx store.Tx) error {
		var err error
		if h, _, err = tx.Head(ctx, contentionWS); err != nil {
			return err
		}
		if events, err = tx.Events(ctx, contentionWS, store.EventRange{Limit: -1}); err != nil {
			return err
		}
		if task, _, err = tx.Task(ctx, contentionWS, contentionTask); err != nil {
			return err
		}
		for w := 0; w < writers; w += 2 {
			for _, key := range writerKeys(w, perWriter) {
				if _, found, err := tx.FindReceipt(ctx, store.ReceiptScope{WorkspaceID: contentionWS,
					Actor: "contention", Key: key}); err != nil {
					return err
				} else if found {
					receipts++
				}
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if receipts != wantKeys {
		t.Errorf("%d receipts, want one per key (%d)", receipts, wantKeys)
	}
	seen := map[string]int{}
	claims := 0
	for i, ev := range events {
		if ev.Sequence != int64(i+1) {
			t.Fatalf("event %d has sequence %d: the journal is not contiguous", i+1, ev.Sequence)
		}
		if strings.HasPrefix(ev.ID, "event_claim_") {
			claims++
			if ev.ID != "event_claim_"+winners[0] {
				t.Errorf("claim event %s, want the winner %s's", ev.ID, winners[0])
			}
			continue
		}
		seen[ev.ID]++
	}
	if len(events) != wantKeys+1 || h.Sequence != int64(len(events)) || claims != 1 {
		t.Fatalf("%d events (%d claims), head at %d; want %d keys and one claim", len(events), claims, h.Sequence, wantKeys)
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("%s appended %d times", id, n)
		}
	}
	if ok, found, err := storetest.VerifyChain(ctx, e, contentionWS); err != nil || !ok || !found {
		t.Fatalf("verify the chain: ok=%v found=%v err=%v", ok, found, err)
	}
	if task.Status != store.TaskClaimed || task.Version != 2 || task.Assignee == nil || *task.Assignee != winners[0] {
		t.Fatalf("task %s v%d held by %v, want claimed v2 by %s", task.Status, task.Version, task.Assignee, winners[0])
	}
}

// TestWritersOfOneWorkspaceKeepItsInvariants runs 16 writers on one
// workspace, spread over four engines (four connection pools, as four
// processes would have), with and without the workspace queue.
func TestWritersOfOneWorkspaceKeepItsInvariants(t *testing.T) {
	for _, firstCome := range []bool{false, true} {
		t.Run(map[bool]string{false: "queued", true: "first-come"}[firstCome], func(t *testing.T) {
			url := freshDatabase(t)
			const writers, perWriter, pools = 16, 12, 4
			engines := make([]*Engine, pools)
			for i := range engines {
				e, err := Open(context.Background(), url)
				if err != nil {
					t.Fatal(err)
				}
				e.firstComeOnly = firstCome
				engines[i] = e
				defer e.Close()
			}
			setUpContention(t, engines[0])
			var wg sync.WaitGroup
			var mu sync.Mutex
			var winners []string
			errs := make([]error, writers)
			start := make(chan struct{})
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					<-start
					who := "writer-" + strconv.Itoa(w)
					won, err := contend(context.Background(), engines[w%pools], who, writerKeys(w, perWriter))
					errs[w] = err
					if won {
						mu.Lock()
						winners = append(winners, who)
						mu.Unlock()
					}
				}(w)
			}
			close(start)
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			checkContention(t, engines[0], writers, perWriter, winners)
			var commits, retried int64
			for _, e := range engines {
				commits += e.stats.commits.Load()
				retried += e.stats.serialization.Load() + e.stats.deadlocks.Load()
			}
			t.Logf("%d commits, %d attempts run again", commits, retried)
		})
	}
}

// contentionChildEnv makes the test binary a contention writer process
// (TestContentionChild): its value is "url process processes perWriter".
const contentionChildEnv = "COLLAB_TEST_CONTENTION_CHILD"

// TestContentionChild is one writer process of
// TestWriterProcessesOfOneWorkspaceKeepItsInvariants; it does nothing in a
// normal run. It prints "ready", waits for a line on stdin, writes, and
// prints "won" or "lost".
func TestContentionChild(t *testing.T) {
	spec := os.Getenv(contentionChildEnv)
	if spec == "" {
		t.Skip("a helper process of TestWriterProcessesOfOneWorkspaceKeepItsInvariants")
	}
	f := strings.Fields(spec)
	w, _ := strconv.Atoi(f[1])
	processes, _ := strconv.Atoi(f[2])
	perWriter, _ := strconv.Atoi(f[3])
	ctx := context.Background()
	e, err := Open(ctx, f[0])
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	fmt.Println("ready")
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatalf("wait for the start: %v", err)
	}
	// Four writers per process; writer g*processes+w, so that the two
	// writers of a pair of keys are in different processes.
	var wg sync.WaitGroup
	wins := make([]bool, 4)
	errs := make([]error, 4)
	writers := make([]int, 4)
	for g := range writers {
		writers[g] = g*processes + w
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			wins[g], errs[g] = contend(ctx, e, "writer-"+strconv.Itoa(writers[g]), writerKeys(writers[g], perWriter))
		}(g)
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	for g, won := range wins {
		if won {
			fmt.Printf("won writer-%d\n", writers[g])
		}
	}
	fmt.Println("done")
}

// TestWriterProcessesOfOneWorkspaceKeepItsInvariants runs four OS
// processes of four writers each on one workspace.
func TestWriterProcessesOfOneWorkspaceKeepItsInvariants(t *testing.T) {
	if os.Getenv(contentionChildEnv) != "" {
		t.Skip("inside a helper process")
	}
	url := freshDatabase(t)
	e, err := Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	setUpContention(t, e)
	const processes, perWriter = 4, 12
	type child struct {
		cmd   *exec.Cmd
		stdin io.WriteCloser
		out   *bufio.Scanner
	}
	children := make([]child, processes)
	for p := range children {
		cmd := exec.Command(os.Args[0], "-test.run=^TestContentionChild$", "-test.v")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d %d %d", contentionChildEnv, url, p, processes, perWriter))
		cmd.Stderr = os.Stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		children[p] = child{cmd: cmd, stdin: stdin, out: bufio.NewScanner(stdout)}
		defer cmd.Process.Kill() //nolint:errcheck // already exited in a passing run
	}
	// Start them together: every process connected first.
	for p, c := range children {
		if !scanUntil(c.out, "ready", nil) {
			t.Fatalf("process %d never got ready", p)
		}
	}
	for _, c := range children {
		fmt.Fprintln(c.stdin, "go")
	}
	var winners []string
	for p, c := range children {
		if !scanUntil(c.out, "done", func(line string) {
			if who, ok := strings.CutPrefix(line, "won "); ok {
				winners = append(winners, who)
			}
		}) {
			t.Errorf("process %d ended without finishing", p)
		}
		if err := c.cmd.Wait(); err != nil {
			t.Errorf("process %d: %v", p, err)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	checkContention(t, e, processes*4, perWriter, winners)
}

// scanUntil reads lines until one equals want, passing the others to
// each; false when the output ends first.
func scanUntil(s *bufio.Scanner, want string, each func(line string)) bool {
	for s.Scan() {
		if s.Text() == want {
			return true
		}
		if each != nil {
			each(s.Text())
		}
	}
	return false
}
