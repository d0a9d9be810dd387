package guard

import (
	"fmt"
	"testing"

	"github.com/agenttool/collab/core/store"
)

func reservation(task, session string, review bool, scopes ...string) store.Reservation {
	r := store.Reservation{TaskID: task, WorkspaceID: "ws", Review: review, PathScopes: scopes}
	if session != "" {
		r.AssigneeSessionID = &session
	}
	return r
}

func TestFindAppliesTheScopeOverlapRule(t *testing.T) {
	held := []store.Reservation{
		reservation("ui", "s-holder", false, "src/app"),
		reservation("docs", "", true, "docs/guide.md"),
	}
	cases := []struct {
		name   string
		change Change
		own    string
		want   []string // "path→task"
	}{
		{"file inside a claimed folder", Change{Status: "M", Path: "src/app/x.go"}, "", []string{"src/app/x.go→ui"}},
		{"case and accents do not hide a path", Change{Status: "M", Path: "SRC/App/x.go"}, "", []string{"SRC/App/x.go→ui"}},
		{"a sibling sharing a prefix is free", Change{Status: "M", Path: "src/application.go"}, "", nil},
		{"a completion awaiting review reserves too", Change{Status: "M", Path: "docs/guide.md"}, "", []string{"docs/guide.md→docs"}},
		{"a rename into a claim", Change{Status: "R", Path: "src/app/moved", From: "free.txt"}, "", []string{"src/app/moved→ui"}},
		{"a rename out of a claim", Change{Status: "R", Path: "free.txt", From: "src/app/x.go"}, "", []string{"src/app/x.go→ui"}},
		{"deleting the folder above a claim", Change{Status: "D", Path: "src"}, "", []string{"src→ui"}},
		{"the holder's own claim never conflicts", Change{Status: "M", Path: "src/app/x.go"}, "s-holder", nil},
		{"another session is not the holder", Change{Status: "M", Path: "src/app/x.go"}, "s-other", []string{"src/app/x.go→ui"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, f := range Find([]Change{c.change}, held, c.own) {
				got = append(got, f.Path+"→"+f.Reservation.TaskID)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

func TestFindNamesEachPathAndTaskOnce(t *testing.T) {
	held := []store.Reservation{reservation("ui", "", false, "src", "src/app")}
	got := Find([]Change{{Status: "M", Path: "src/app/x"}, {Status: "M", Path: "src/app/x"}}, held, "")
	if len(got) != 1 || got[0].Scope != "src" {
		t.Fatalf("want one conflict naming the first overlapping scope, got %+v", got)
	}
}

// BenchmarkFind100PathsAgainst1000Claims is the guard's matching work for
// a commit of 100 paths against 1,000 live claims of three scopes each.
func BenchmarkFind100PathsAgainst1000Claims(b *testing.B) {
	held := make([]store.Reservation, 1000)
	for i := range held {
		held[i] = reservation(fmt.Sprintf("t%d", i), fmt.Sprintf("s%d", i%7), false,
			fmt.Sprintf("pkg%d/module", i), fmt.Sprintf("docs/pkg%d.md", i), fmt.Sprintf("cmd/tool%d", i))
	}
	changes := make([]Change, 100)
	for i := range changes {
		changes[i] = Change{Status: "M", Path: fmt.Sprintf("pkg%d/module/file%d.go", i*10, i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if got := Find(changes, held, "s3"); len(got) == 0 {
			b.Fatal("expected conflicts")
		}
	}
}
