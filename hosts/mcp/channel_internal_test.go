package mcp

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agenttool/collab/core/journal"
	"github.com/agenttool/collab/core/wake"
)

func TestChannelMetaKeepsOnlyKeysClaudeCodeShowsOnce(t *testing.T) {
	cases := []struct {
		key  string
		kept bool
	}{
		{"kind", true}, {"task_id", true}, {"_private", true}, {"Seq2", true},
		{"source", false},  // the host writes its own source attribute; a second one duplicates it
		{"task-id", false}, // a hyphen is outside [a-zA-Z0-9_]
		{"2nd", false},     // must not start with a digit
		{"", false},        // empty
		{"ключ", false},    // non-ASCII letters
		{"a.b", false},     // dot
		{"with space", false},
	}
	for _, c := range cases {
		got := channelMeta(map[string]string{c.key: "v"})
		if _, kept := got[c.key]; kept != c.kept {
			t.Errorf("meta key %q kept=%v, want %v", c.key, kept, c.kept)
		}
	}
	if got := channelMeta(map[string]string{"kind": ""}); got != nil {
		t.Errorf("an empty value should be left out, got %v", got)
	}
}

func TestChannelMessageTellsTheModelToCallCollabNext(t *testing.T) {
	cases := []struct {
		name    string
		notice  wake.Notice
		content string
		meta    map[string]string
	}{
		{"event", wake.Notice{Kind: wake.HandoffOffered, Sequence: 42, TaskID: "t1", From: "alice", Text: "handoff of task t1 offered to you by alice: finish it"},
			"collab: #42 handoff of task t1 offered to you by alice: finish it — call collab_next to read it",
			map[string]string{"kind": "handoff_offered", "sequence": "42", "task_id": "t1", "from": "alice", "workspace_id": "ws_1"}},
		{"lease state", wake.Notice{Kind: wake.LeaseExpiring, TaskID: "t2", Text: "your lease on task t2 expires in 2m0s; renew it or release the task"},
			"collab: your lease on task t2 expires in 2m0s; renew it or release the task — call collab_next",
			map[string]string{"kind": "lease_expiring", "task_id": "t2", "workspace_id": "ws_1"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			raw, err := channelMessage(c.notice, "ws_1").encode()
			if err != nil {
				t.Fatal(err)
			}
			var got channelParams
			if err := json.Unmarshal(raw, &got); err != nil {
				t.Fatal(err)
			}
			if got.Content != c.content || !reflect.DeepEqual(got.Meta, c.meta) {
				t.Fatalf("params %s\nwant content %q meta %v", raw, c.content, c.meta)
			}
		})
	}
}

func TestChannelEnabledAcceptsOnlyClearValues(t *testing.T) {
	for value, want := range map[string]bool{"": false, "0": false, "off": false, "false": false, "1": true, "true": true, "ON": true} {
		got, err := ChannelEnabled(value)
		if err != nil || got != want {
			t.Errorf("ChannelEnabled(%q) = %v, %v; want %v", value, got, err, want)
		}
	}
	if _, err := ChannelEnabled("yes please"); err == nil || !strings.Contains(err.Error(), ChannelEnv) {
		t.Errorf("an unclear value should be refused naming %s, got %v", ChannelEnv, err)
	}
}

func TestChannelMarkIsUsedOnlyForItsSessionAndEpoch(t *testing.T) {
	path := markPath(filepath.Join(t.TempDir(), "sess_b.json"))
	head := journal.Anchor{EpochID: "ep1", Sequence: 50}
	if got := startAfter(path, "sess_b", head); got != 50 {
		t.Fatalf("no mark: start at %d, want the head 50", got)
	}
	writeMark(path, channelMark{SessionID: "sess_b", EpochID: "ep1", Sequence: 30})
	cases := []struct {
		name    string
		session string
		head    journal.Anchor
		want    int64
	}{
		{"own mark", "sess_b", head, 30},
		{"another session's", "sess_c", head, 50},
		{"another epoch", "sess_b", journal.Anchor{EpochID: "ep2", Sequence: 50}, 50},
		{"past the head", "sess_b", journal.Anchor{EpochID: "ep1", Sequence: 20}, 20},
	}
	for _, c := range cases {
		if got := startAfter(path, c.session, c.head); got != c.want {
			t.Errorf("%s: start at %d, want %d", c.name, got, c.want)
		}
	}
	removeMark(path)
	if got := startAfter(path, "sess_b", head); got != 50 {
		t.Fatalf("removed mark: start at %d, want 50", got)
	}
}
