package store_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	oscmd "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/agenttool/collab/core/backend"
	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/covertest"
	"github.com/agenttool/collab/core/stress"
)

// firstStartEnv makes the test binary an opener process: it says "ready",
// waits for one line on stdin, opens the database named by the variable
// and prints "ok" or what refused it.
const firstStartEnv = "COLLAB_STORE_FIRST_START_DB"

// TestOpenerProcess is the body of one opener process; it does nothing in
// an ordinary test run.
func TestOpenerProcess(t *testing.T) {
	path := os.Getenv(firstStartEnv)
	if path == "" {
		return
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n')
	st, err := backend.Open(context.Background(), backend.Options{Path: path, Observe: fixedObserve})
	switch ce, refused := collaberr.As(err); {
	case err == nil:
		st.Close()
		fmt.Println("ok")
	case refused:
		fmt.Println("refused " + ce.Code)
	default:
		fmt.Println("error " + strings.ReplaceAll(err.Error(), "\n", " "))
	}
	os.Exit(0)
}

// opener is one running opener process.
type opener struct {
	cmd   *oscmd.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startOpener(t *testing.T, db string) *opener {
	t.Helper()
	cmd := oscmd.Command(os.Args[0], "-test.run=^TestOpenerProcess$")
	// A coverage run's directory last, so the opener's coverage counts.
	cmd.Env = append(append(os.Environ(), firstStartEnv+"="+db), covertest.Env()...)
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
	o := &opener{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
	if line, _ := o.out.ReadString('\n'); line != "ready\n" {
		t.Fatalf("opener did not start: %q", line)
	}
	return o
}

// firstStartRounds is how many rounds run: sized by COLLAB_STRESS (CI 2,
// full 10; see core/stress) or exactly by COLLAB_FIRST_START_ROUNDS.
func firstStartRounds(t *testing.T) int {
	return stress.N(t, "COLLAB_FIRST_START_ROUNDS", stress.Size{Short: 1, CI: 2, Full: 10})
}

func TestConcurrentFirstStartsOnANewFileAllSucceed(t *testing.T) {
	const processes = 16
	rounds := firstStartRounds(t)
	failures := 0
	for round := 0; round < rounds; round++ {
		db := filepath.Join(t.TempDir(), "state", "collab.sqlite")
		openers := make([]*opener, processes)
		for i := range openers {
			openers[i] = startOpener(t, db)
		}
		// Released together: every process is already running and waits
		// on its stdin, so the opens race for real.
		for _, o := range openers {
			io.WriteString(o.stdin, "go\n")
		}
		var wg sync.WaitGroup
		results := make([]string, processes)
		for i, o := range openers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				line, _ := o.out.ReadString('\n')
				o.cmd.Wait()
				results[i] = strings.TrimSpace(line)
			}()
		}
		wg.Wait()
		for i, r := range results {
			if r != "ok" {
				failures++
				t.Errorf("round %d, process %d: %s", round, i, r)
			}
		}
		st, err := backend.Open(context.Background(), backend.Options{Path: db, ReadOnly: true})
		if err != nil {
			t.Fatalf("round %d: the file is not a sound database afterwards: %v", round, err)
		}
		st.Close()
	}
	t.Logf("%d rounds of %d processes, %d refused or failed", rounds, processes, failures)
}
