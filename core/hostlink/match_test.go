package hostlink_test

import (
	"testing"
	"time"

	"github.com/agenttool/collab/core/hostlink"
)

func TestMatchPicksOnlyTheSeekersOwnConversationsLiveSession(t *testing.T) {
	boot := "boot-1"
	host := hostlink.Proc{PID: 100, Start: 5000, Boot: boot}
	otherHost := hostlink.Proc{PID: 200, Start: 6000, Boot: boot}
	reused := hostlink.Proc{PID: 100, Start: 9000, Boot: boot}
	otherBoot := hostlink.Proc{PID: 100, Start: 5000, Boot: "boot-2"}
	t0 := time.Date(2026, 12, 2, 21, 0, 0, 0, time.UTC)
	rec := func(session string, h hostlink.Proc, server int, conv string, at int) hostlink.Record {
		return hostlink.Record{Format: hostlink.Format, SessionID: session, CredentialFile: "/c/" + session + ".json",
			Host: h, Server: hostlink.Proc{PID: server, Start: uint64(7000 + at), Boot: boot}, Conversation: conv,
			Written: t0.Add(time.Duration(at) * time.Second)}
	}
	dead := map[int]bool{}
	alive := func(p hostlink.Proc) bool { return !dead[p.PID] }
	cases := []struct {
		name    string
		records []hostlink.Record
		seeker  hostlink.Seeker
		dead    []int
		want    string // session id, "" for none
	}{
		{"its own record", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{host, "c1"}, nil, "s1"},
		{"two conversations in one repository, the first", []hostlink.Record{rec("sA", host, 1, "cA", 0), rec("sB", otherHost, 2, "cB", 1)},
			hostlink.Seeker{host, "cA"}, nil, "sA"},
		{"two conversations in one repository, the second", []hostlink.Record{rec("sA", host, 1, "cA", 0), rec("sB", otherHost, 2, "cB", 1)},
			hostlink.Seeker{otherHost, "cB"}, nil, "sB"},
		{"another conversation of the same host process", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{host, "c2"}, nil, ""},
		{"another host with the same conversation id", []hostlink.Record{rec("s1", otherHost, 1, "c1", 0)}, hostlink.Seeker{host, "c1"}, nil, ""},
		{"a resumed conversation takes its new host's session", []hostlink.Record{rec("old", otherHost, 1, "c1", 0), rec("new", host, 2, "c1", 1)},
			hostlink.Seeker{host, "c1"}, nil, "new"},
		{"a resumed conversation whose new server bound nothing", []hostlink.Record{rec("old", otherHost, 1, "c1", 0)},
			hostlink.Seeker{host, "c1"}, nil, ""},
		{"a restarted server: the newest record wins", []hostlink.Record{rec("first", host, 1, "c1", 0), rec("second", host, 2, "c1", 5)},
			hostlink.Seeker{host, "c1"}, nil, "second"},
		{"a restarted server: order on disk does not matter", []hostlink.Record{rec("second", host, 2, "c1", 5), rec("first", host, 1, "c1", 0)},
			hostlink.Seeker{host, "c1"}, nil, "second"},
		{"a crashed server's record is ignored", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{host, "c1"}, []int{1}, ""},
		{"a crashed newer server leaves the live older one", []hostlink.Record{rec("first", host, 1, "c1", 0), rec("second", host, 2, "c1", 5)},
			hostlink.Seeker{host, "c1"}, []int{2}, "first"},
		{"a reused host pid never matches", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{reused, "c1"}, nil, ""},
		{"the same pid and start in another boot never matches", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{otherBoot, "c1"}, nil, ""},
		{"a host that passes no conversation to its server", []hostlink.Record{rec("s1", host, 1, "", 0)}, hostlink.Seeker{host, "c1"}, nil, "s1"},
		{"its own conversation beats a newer record naming none", []hostlink.Record{rec("own", host, 1, "c1", 0), rec("unnamed", host, 2, "", 5)},
			hostlink.Seeker{host, "c1"}, nil, "own"},
		{"a hook given no conversation", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{host, ""}, nil, "s1"},
		{"a seeker without a host", []hostlink.Record{rec("s1", host, 1, "c1", 0)}, hostlink.Seeker{Conversation: "c1"}, nil, ""},
		{"no records", nil, hostlink.Seeker{host, "c1"}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			clear(dead)
			for _, pid := range tc.dead {
				dead[pid] = true
			}
			got, ok := hostlink.Match(tc.records, tc.seeker, alive)
			if !ok {
				got.SessionID = ""
			}
			if got.SessionID != tc.want {
				t.Fatalf("Match = %q (%v), want %q", got.SessionID, ok, tc.want)
			}
		})
	}
}
