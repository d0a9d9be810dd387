package search_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/agenttool/collab/core/collaberr"
	"github.com/agenttool/collab/core/search"
	"github.com/agenttool/collab/core/store"
)

// wordyWorld is a journal of n tasks whose descriptions hold 300 random
// lowercase words each, so prefix terms of one letter match thousands of
// positions: the shape on which a 1,000-character NEAR query held a core
// for most of a minute.
func wordyWorld(t testing.TB, n int) *legacyWorld {
	t.Helper()
	w := newLegacyWorld(t)
	r := rand.New(rand.NewSource(36))
	const letters = "abcdefghijklmnopqrstuvwxyz"
	for i := 0; i < n; i++ {
		var b strings.Builder
		for j := 0; j < 300; j++ {
			for k := 3 + r.Intn(6); k > 0; k-- {
				b.WriteByte(letters[r.Intn(len(letters))])
			}
			b.WriteByte(' ')
		}
		desc := b.String()
		w.n++
		_, err := w.st.CreateTask(context.Background(), store.LabelActor("ann"), store.CreateTaskInput{WorkspaceID: w.ws,
			IdempotencyKey: fmt.Sprintf("wordy%d", i), Title: fmt.Sprintf("wordy task %d", i), Description: &desc})
		if err != nil {
			t.Fatal(err)
		}
	}
	return w
}

// repeat joins n copies of term with sep.
func repeat(term, sep string, n int) string {
	return strings.TrimSuffix(strings.Repeat(term+sep, n), sep)
}

// prefixes returns n one-letter prefix terms, a* b* … cycling.
func prefixes(n int) string {
	var p []string
	for i := 0; i < n; i++ {
		p = append(p, string(rune('a'+i%26))+"*")
	}
	return strings.Join(p, " ")
}

// hostileQueries are the expensive shapes of issue 36 and their kin.
var hostileQueries = []struct{ name, query string }{
	{"1,000 characters of NEAR over one prefix", "NEAR(" + repeat("a*", " ", 329) + ", 1000)"},
	{"NEAR over 330 different prefixes", "NEAR(" + prefixes(330) + ", 1000)"},
	{"330 prefixes side by side", prefixes(330)},
	{"330 prefixes ORed", repeat("a*", " OR ", 200)},
	{"10,000 terms from the command line", repeat("word", " ", 10000)},
	{"a NEAR group 100,000 words wide", "NEAR(alpha beta, 100000)"},
	{"prefixes in quoted phrases", repeat(`"a"*`, " ", 100)},
}

func TestHostileQueriesAreAnsweredOrRefusedWithinASecond(t *testing.T) {
	ix := openIndex(t, wordyWorld(t, 200).st)
	find(t, ix, search.Query{Text: "wordy"}) // index first: only the query is timed
	for _, c := range hostileQueries {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			start := time.Now()
			_, err := ix.Search(ctx, search.Query{Text: c.query})
			took := time.Since(start)
			t.Logf("%d characters: %v after %v", len(c.query), err, took)
			if took >= time.Second {
				t.Errorf("answered after %v, want under 1 s", took)
			}
			if err != nil && !isCode(err, collaberr.QueryTooComplex) {
				t.Errorf("refused with %v, want query_too_complex", err)
			}
		})
	}
}

func isCode(err error, code collaberr.Code) bool { return collaberr.HasCode(err, code) }

func TestQueryLimitsRefuseOnlyWhatIsOverThem(t *testing.T) {
	ix := openIndex(t, openStore(t, copyFixture(t)))
	cases := []struct {
		name, query string
		refused     string // the limit named, "" when the query runs
	}{
		{"plain words", "release cadence", ""},
		{"32 words", repeat("release", " ", 32), ""},
		{"33 words", repeat("release", " ", 33), "terms"},
		{"operators are words", "release" + strings.Repeat(" OR release AND release", 6), ""},
		{"33 with operators", "release" + strings.Repeat(" OR release AND release NOT x", 5) + " OR x AND x", "terms"},
		{"words in a phrase count", `"` + repeat("docs", " ", 33) + `"`, "terms"},
		{"8 prefixes", prefixes(8), ""},
		{"9 prefixes", prefixes(9), "prefixes"},
		{"a star in a phrase counts", `"rel*" ` + prefixes(8), "prefixes"},
		{"a star after an unbalanced quote counts", `"docs rel* ` + prefixes(8), "prefixes"},
		{"prefix after a phrase", `"rel"* ` + prefixes(8), "prefixes"},
		{"NEAR of default width", "NEAR(release cadence)", ""},
		{"NEAR 50 wide", "NEAR(release cadence, 50)", ""},
		{"NEAR 51 wide", "NEAR(release cadence, 51)", "near_width"},
		{"NEAR in quotes is a word", `"NEAR(release, 99)"`, ""},
		{"NEAR and its width are words", "NEAR(" + repeat("release", " ", 30) + ", 10)", ""},
		{"one more word in the NEAR", "NEAR(" + repeat("release", " ", 31) + ", 10)", "terms"},
		{"1,000 characters", strings.Repeat("x", 1000), ""},
		{"1,001 characters", strings.Repeat("x", 1001), "length"},
		{"1,000 characters of multibyte text", strings.Repeat("é", 1000), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ix.Search(context.Background(), search.Query{Text: c.query})
			switch {
			case c.refused == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.refused == "":
			case !isCode(err, collaberr.QueryTooComplex):
				t.Fatalf("got %v, want query_too_complex", err)
			default:
				e, _ := collaberr.As(err)
				if limit, _ := e.Detail("limit"); limit != c.refused {
					t.Fatalf("refusal names limit %v, want %s: %v", limit, c.refused, err)
				}
			}
		})
	}
}

// unbounded opens an index with limits too high to refuse anything, so
// that only the deadline stands between a hostile query and the CPU.
func unbounded(t testing.TB, st *store.Store, deadline time.Duration) *search.Index {
	t.Helper()
	huge := search.Limits{Length: 1 << 30, Terms: 1 << 30, Prefixes: 1 << 30, NearWidth: 1 << 30}
	ix, err := search.OpenWith(context.Background(), st, search.Options{Limits: huge, Deadline: deadline})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func TestTheDeadlineInterruptsSQLite(t *testing.T) {
	const deadline = 250 * time.Millisecond
	ix := unbounded(t, wordyWorld(t, 200).st, deadline)
	find(t, ix, search.Query{Text: "wordy"})
	start := time.Now()
	_, err := ix.Search(context.Background(), search.Query{Text: hostileQueries[0].query})
	took := time.Since(start)
	t.Logf("stopped after %v: %v", took, err)
	if !isCode(err, collaberr.QueryTooComplex) {
		t.Fatalf("got %v, want query_too_complex", err)
	}
	if took > deadline+750*time.Millisecond {
		t.Errorf("stopped %v after a %v deadline", took, deadline)
	}
}

func TestCancellingTheContextInterruptsSQLite(t *testing.T) {
	ix := unbounded(t, wordyWorld(t, 200).st, time.Minute)
	find(t, ix, search.Query{Text: "wordy"})
	ctx, cancel := context.WithCancel(context.Background())
	timer := time.AfterFunc(200*time.Millisecond, cancel)
	defer timer.Stop()
	start := time.Now()
	_, err := ix.Search(ctx, search.Query{Text: hostileQueries[0].query})
	took := time.Since(start)
	t.Logf("returned after %v: %v", took, err)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if took > time.Second {
		t.Errorf("returned %v after a cancel at 200 ms", took)
	}
}

// TestASlowSearchDoesNotDelayAnother runs one slow search (only the
// deadline would stop it) and, while it runs, normal searches one after
// another on the same index: none may wait for the slow one.
func TestASlowSearchDoesNotDelayAnother(t *testing.T) {
	w := wordyWorld(t, 200)
	ix := unbounded(t, w.st, 3*time.Second)
	find(t, ix, search.Query{Text: "wordy"})
	slowDone := make(chan time.Duration, 1)
	slowStart := time.Now()
	go func() {
		ix.Search(context.Background(), search.Query{Text: hostileQueries[0].query}) //nolint:errcheck // only its duration matters
		slowDone <- time.Since(slowStart)
	}()
	var worst time.Duration
	normal := 0
	for {
		start := time.Now()
		res := find(t, ix, search.Query{Text: "wordy task 17"})
		took := time.Since(start)
		worst = max(worst, took)
		select {
		case slow := <-slowDone:
			t.Logf("%d normal searches while the slow one ran %v; slowest %v", normal, slow, worst)
			if normal < 3 {
				t.Fatalf("only %d normal searches ran beside a %v slow one", normal, slow)
			}
			// Queued behind the slow search, one would take about as long
			// as it; beside it, a normal search only shares the CPU.
			if worst > slow/2 {
				t.Fatalf("a normal search took %v beside a %v slow one", worst, slow)
			}
			return
		default:
		}
		if len(res.Hits) == 0 {
			t.Fatal("the normal search found nothing")
		}
		normal++
		if took > 2*time.Second {
			t.Fatalf("a normal search waited %v for the slow one", took)
		}
	}
}
