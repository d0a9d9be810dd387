package gitstate

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
	"time"
)

func TestReducedCheckpointDigestMatchesContractVector(t *testing.T) {
	v := loadVectors(t).ReducedCheckpoint
	at, err := time.Parse(time.RFC3339, v.CapturedAt)
	if err != nil {
		t.Fatal(err)
	}
	cp := reducedCheckpoint(v.WorktreeID, at.In(time.FixedZone("elsewhere", 5*3600)))
	// encoding/json sorts map keys; with ASCII keys and values that is the
	// canonical form (docs/contract.md#canonical-json).
	data, err := json.Marshal(cp.Map())
	if err != nil {
		t.Fatal(err)
	}
	if string(data) != v.CanonicalJSON || hexOf(data) != v.Digest {
		t.Fatalf("got %s (%s), want %s (%s)", data, hexOf(data), v.CanonicalJSON, v.Digest)
	}
}

func TestFullCheckpointMapHasExactlyTheContractKeys(t *testing.T) {
	sha, branch, dirty := "ab", "main", false
	cp := Checkpoint{WorktreeID: "wt_x", HeadSHA: &sha, Branch: &branch, Dirty: &dirty,
		Digests: &StateDigests{IndexSHA256: &sha}, CapturedAt: "t"}
	m := cp.Map()
	want := []string{"algorithm", "branch", "captured_at", "dirty", "head_sha", "index_sha256",
		"source", "state_sha256", "worktree_id"}
	if got := slices.Sorted(maps.Keys(m)); !slices.Equal(got, want) {
		t.Fatalf("keys %v, want %v", got, want)
	}
	if m["algorithm"] != "git-state/v1" || m["source"] != "server_observed" || m["state_sha256"] != nil ||
		m["dirty"] != false || m["index_sha256"] != "ab" {
		t.Fatalf("values %v", m)
	}
}

// TestCheckpointFollowsStepsEightToEleven checks how the observed outputs
// become fields (docs/contract.md#checkpoint-capture, steps 8-11).
func TestCheckpointFollowsStepsEightToEleven(t *testing.T) {
	head := gitText{value: "ABCDEF0123456789ABCDEF0123456789ABCDEF01", ok: true}
	status := gitOutput{out: []byte(" M a\x00"), ok: true}
	base := observation{headState: headState{head, gitText{"main", true}}, status1: status, status2: status,
		index: gitOutput{[]byte("idx"), true}, diff: gitOutput{[]byte("diff"), true}, untracked: &[32]byte{7}}
	stateOf := func(o observation) string {
		return *hexSum(o.diff.out, []byte{0}, o.status2.out, []byte{0}, o.untracked[:])
	}
	cases := []struct {
		name      string
		change    func(*observation)
		head      string // "" for null
		dirty     string // "true", "false" or "" for null
		stateNull bool
		indexNull bool
	}{
		{"complete", func(*observation) {}, "abcdef0123456789abcdef0123456789abcdef01", "true", false, false},
		{"clean", func(o *observation) { o.status1.out, o.status2.out = nil, nil }, "abcdef0123456789abcdef0123456789abcdef01", "false", false, false},
		{"status changed between the two calls", func(o *observation) { o.status1.out = []byte("?? b\x00") }, "abcdef0123456789abcdef0123456789abcdef01", "true", true, false},
		{"first status failed", func(o *observation) { o.status1.ok = false }, "abcdef0123456789abcdef0123456789abcdef01", "true", true, false},
		{"second status failed", func(o *observation) { o.status2 = gitOutput{} }, "abcdef0123456789abcdef0123456789abcdef01", "", true, false},
		{"diff failed", func(o *observation) { o.diff.ok = false }, "abcdef0123456789abcdef0123456789abcdef01", "true", true, false},
		{"untracked not digested", func(o *observation) { o.untracked = nil }, "abcdef0123456789abcdef0123456789abcdef01", "true", true, false},
		{"index listing failed", func(o *observation) { o.index.ok = false }, "abcdef0123456789abcdef0123456789abcdef01", "true", false, true},
		{"HEAD is not an object id", func(o *observation) { o.head.value = "abc" }, "", "true", false, false},
		{"HEAD has 65 digits", func(o *observation) { o.head.value = head.value + "0123456789abcdef0123456789" }, "", "true", false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := base
			c.change(&o)
			m := o.checkpoint("wt_1", time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)).Map()
			if m["captured_at"] != "2026-01-02T03:04:05.006Z" || m["branch"] != "main" {
				t.Fatalf("fields %v", m)
			}
			if got, want := m["head_sha"], any(c.head); c.head == "" && got != nil || c.head != "" && got != want {
				t.Fatalf("head_sha %v, want %q", got, c.head)
			}
			if d := m["dirty"]; c.dirty == "" && d != nil || c.dirty != "" && d != (c.dirty == "true") {
				t.Fatalf("dirty %v, want %s", d, c.dirty)
			}
			if s := m["state_sha256"]; c.stateNull != (s == nil) || s != nil && s != stateOf(o) {
				t.Fatalf("state_sha256 %v, null wanted: %v", s, c.stateNull)
			}
			if i := m["index_sha256"]; c.indexNull != (i == nil) || i != nil && i != hexOf([]byte("idx")) {
				t.Fatalf("index_sha256 %v", i)
			}
		})
	}
}
