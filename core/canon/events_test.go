package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"
)

// eventVector is one real journal row from testdata/event-hash.json.
type eventVector struct {
	Why string `json:"why"`
	Row struct {
		Protocol    string  `json:"protocol"`
		WorkspaceID string  `json:"workspace_id"`
		EpochID     string  `json:"epoch_id"`
		Sequence    int64   `json:"sequence"`
		ID          string  `json:"id"`
		Type        string  `json:"type"`
		EntityID    string  `json:"entity_id"`
		Actor       string  `json:"actor"`
		OccurredAt  string  `json:"occurred_at"`
		PayloadJSON string  `json:"payload_json"`
		PrevHash    string  `json:"prev_hash"`
		Hash        string  `json:"hash"`
		SessionID   *string `json:"session_id"`
	} `json:"row"`
	HashBodyCanonical string `json:"hash_body_canonical"`
	HashBodySHA256    string `json:"hash_body_sha256"`
}

func loadEvents(t testing.TB) []eventVector {
	var file struct {
		V040  []eventVector `json:"events_v0_4_0"`
		Mixed []eventVector `json:"mixed_v0_1_then_v0_2"`
		Edge  []eventVector `json:"edge"`
	}
	loadJSON(t, "event-hash.json", &file)
	all := append(append(file.V040, file.Mixed...), file.Edge...)
	if len(all) != 30 {
		t.Fatalf("expected 30 event vectors, found %d", len(all))
	}
	return all
}

// eventBody assembles the hashed body of a row the way the journal does,
// with the payload given as raw JSON so that it is re-canonicalised.
func eventBody(e eventVector) map[string]any {
	r := e.Row
	body := map[string]any{
		"protocol": r.Protocol, "workspace_id": r.WorkspaceID, "epoch_id": r.EpochID,
		"sequence": r.Sequence, "id": r.ID, "type": r.Type, "entity_id": r.EntityID,
		"actor": r.Actor, "occurred_at": r.OccurredAt, "prev_hash": r.PrevHash,
		"payload": json.RawMessage(r.PayloadJSON),
	}
	if r.Protocol != "agenttool.collab/0.1" {
		var session any
		if r.SessionID != nil {
			session = *r.SessionID
		}
		body["session_id"] = session
	}
	return body
}

func TestEventBodiesHashToStoredHashes(t *testing.T) {
	for _, e := range loadEvents(t) {
		t.Run(e.Row.ID, func(t *testing.T) {
			got, err := Marshal(eventBody(e))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != e.HashBodyCanonical {
				t.Errorf("body:\n got %s\nwant %s", got, e.HashBodyCanonical)
			}
			sum := sha256.Sum256(got)
			if h := hex.EncodeToString(sum[:]); h != e.Row.Hash || h != e.HashBodySHA256 {
				t.Errorf("hash %s, stored %s", h, e.Row.Hash)
			}
		})
	}
}

// TestStoredPayloadsAreCanonical proves the fast path recognises every
// payload the reference stored, and that Canonicalize returns them as is.
func TestStoredPayloadsAreCanonical(t *testing.T) {
	for _, e := range loadEvents(t) {
		payload := []byte(e.Row.PayloadJSON)
		if !IsCanonical(payload) {
			t.Errorf("%s: stored payload not recognised as canonical: %s", e.Row.ID, payload)
		}
		if !IsCanonical([]byte(e.HashBodyCanonical)) {
			t.Errorf("%s: hash body not recognised as canonical", e.Row.ID)
		}
		got, err := Canonicalize(payload)
		if err != nil || &got[0] != &payload[0] {
			t.Errorf("%s: Canonicalize did not return its input (err %v)", e.Row.ID, err)
		}
	}
}
