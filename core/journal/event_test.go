package journal

import (
	"encoding/json"
	"os"
	"testing"
)

// vectorRow is one stored event row of the reference fixtures.
type vectorRow struct {
	WorkspaceID string  `json:"workspace_id"`
	EpochID     string  `json:"epoch_id"`
	Sequence    int64   `json:"sequence"`
	ID          string  `json:"id"`
	Protocol    string  `json:"protocol"`
	Type        string  `json:"type"`
	EntityID    string  `json:"entity_id"`
	Actor       string  `json:"actor"`
	OccurredAt  string  `json:"occurred_at"`
	PayloadJSON string  `json:"payload_json"`
	PrevHash    string  `json:"prev_hash"`
	Hash        string  `json:"hash"`
	SessionID   *string `json:"session_id"`
}

type vector struct {
	Why       string    `json:"why"`
	Row       vectorRow `json:"row"`
	Canonical string    `json:"hash_body_canonical"`
	SHA256    string    `json:"hash_body_sha256"`
}

func loadVectors(t *testing.T) map[string][]vector {
	t.Helper()
	b, err := os.ReadFile("testdata/event-hash.json")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string][]vector{}
	for _, key := range []string{"events_v0_4_0", "mixed_v0_1_then_v0_2", "edge"} {
		var vs []vector
		if err := json.Unmarshal(raw[key], &vs); err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		out[key] = vs
	}
	return out
}

func (r vectorRow) event() Event {
	return Event{WorkspaceID: r.WorkspaceID, EpochID: r.EpochID, Sequence: r.Sequence, ID: r.ID, Protocol: r.Protocol,
		Type: r.Type, EntityID: r.EntityID, Actor: r.Actor, OccurredAt: r.OccurredAt, PayloadJSON: []byte(r.PayloadJSON),
		PrevHash: r.PrevHash, Hash: r.Hash, SessionID: r.SessionID}
}

func TestReferenceEventHashesRecompute(t *testing.T) {
	total := 0
	for group, vs := range loadVectors(t) {
		for _, v := range vs {
			total++
			e := v.Row.event()
			body, err := AppendHashBody(nil, &e)
			if err != nil {
				t.Fatalf("%s %s: %v", group, v.Why, err)
			}
			if string(body) != v.Canonical {
				t.Errorf("%s %s: body\n got %s\nwant %s", group, v.Why, body, v.Canonical)
			}
			var h Hasher
			if got, _ := h.Hash(&e); got != v.SHA256 || got != e.Hash {
				t.Errorf("%s %s: hash %s, want %s", group, v.Why, got, v.SHA256)
			}
		}
	}
	if total != 30 {
		t.Fatalf("expected 30 reference vectors, found %d", total)
	}
}

func TestV01EventsHashWithoutSessionID(t *testing.T) {
	sid := "session_x"
	e := Event{Protocol: ProtocolV1, PayloadJSON: []byte(`{}`), SessionID: &sid}
	body, _ := AppendHashBody(nil, &e)
	e.Protocol = ProtocolV2
	body2, _ := AppendHashBody(nil, &e)
	if string(body) == string(body2) || json.Valid(body) == false {
		t.Fatal("protocol 0.1 and 0.2 bodies must differ by session_id")
	}
	var m map[string]any
	json.Unmarshal(body, &m)
	if _, has := m["session_id"]; has {
		t.Fatal("a 0.1 body must not carry session_id even when the column is set")
	}
}

func TestVerifierChecksContiguityLinksAndHashes(t *testing.T) {
	// Sequences 35 and 36 of the mixed fixture: the last 0.1 event and the
	// first 0.2 event chained on it.
	var chain []Event
	for _, v := range loadVectors(t)["mixed_v0_1_then_v0_2"] {
		if v.Row.Sequence == 35 || v.Row.Sequence == 36 {
			chain = append(chain, v.Row.event())
		}
	}
	if len(chain) != 2 || chain[0].Protocol != ProtocolV1 || chain[1].Protocol != ProtocolV2 {
		t.Fatalf("fixture lacks the 0.1 → 0.2 boundary: %+v", chain)
	}
	first := chain[0]
	cases := []struct {
		name   string
		mutate func([]Event)
		valid  bool
	}{
		{"intact", func([]Event) {}, true},
		{"gap", func(c []Event) { c[1].Sequence++ }, false},
		{"broken link", func(c []Event) { c[1].PrevHash = GenesisHash }, false},
		{"edited payload", func(c []Event) { c[0].PayloadJSON = []byte(`{"edited":true}`) }, false},
		{"edited actor", func(c []Event) { c[1].Actor += "!" }, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := append([]Event(nil), chain...)
			tc.mutate(c)
			v := NewVerifier(first.Sequence-1, first.PrevHash)
			for i := range c {
				v.Next(&c[i])
			}
			if v.Valid() != tc.valid {
				t.Fatalf("valid = %v, want %v", v.Valid(), tc.valid)
			}
		})
	}
}
