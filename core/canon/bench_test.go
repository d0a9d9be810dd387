package canon

import (
	"encoding/json"
	"testing"
)

// storedPayloads returns the payload_json texts of the real journal rows,
// which is what journal verification re-canonicalises.
func storedPayloads(b *testing.B) [][]byte {
	var out [][]byte
	for _, e := range loadEvents(b) {
		out = append(out, []byte(e.Row.PayloadJSON))
	}
	return out
}

func totalLen(items [][]byte) int64 {
	n := 0
	for _, p := range items {
		n += len(p)
	}
	return int64(n)
}

// BenchmarkIsCanonical checks one pass over all 30 stored payloads per op.
func BenchmarkIsCanonical(b *testing.B) {
	payloads := storedPayloads(b)
	b.SetBytes(totalLen(payloads))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range payloads {
			if !IsCanonical(p) {
				b.Fatal("stored payload not canonical")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(payloads)), "ns/payload")
}

// BenchmarkIsCanonicalEventBodies checks whole canonical hash bodies.
func BenchmarkIsCanonicalEventBodies(b *testing.B) {
	var bodies [][]byte
	for _, e := range loadEvents(b) {
		bodies = append(bodies, []byte(e.HashBodyCanonical))
	}
	b.SetBytes(totalLen(bodies))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range bodies {
			if !IsCanonical(p) {
				b.Fatal("hash body not canonical")
			}
		}
	}
}

// BenchmarkCanonicalizeSlow re-canonicalises payloads that are not
// canonical (pretty-printed), so every one goes through Parse and Append.
func BenchmarkCanonicalizeSlow(b *testing.B) {
	var inputs [][]byte
	for _, p := range storedPayloads(b) {
		var v any
		if err := json.Unmarshal(p, &v); err != nil {
			b.Fatal(err)
		}
		pretty, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			b.Fatal(err)
		}
		inputs = append(inputs, pretty)
	}
	b.SetBytes(totalLen(inputs))
	b.ReportAllocs()
	for b.Loop() {
		for _, in := range inputs {
			if _, err := Canonicalize(in); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(inputs)), "ns/payload")
}

// BenchmarkAppendEventBody encodes a full event hash body whose payload is
// the stored payload_json, into a reused buffer.
func BenchmarkAppendEventBody(b *testing.B) {
	events := loadEvents(b)
	bodies := make([]map[string]any, len(events))
	for i, e := range events {
		bodies[i] = eventBody(e)
	}
	b.ReportAllocs()
	var buf []byte
	for b.Loop() {
		for _, body := range bodies {
			var err error
			if buf, err = Append(buf[:0], body); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(bodies)), "ns/body")
}

func BenchmarkAppendNumber(b *testing.B) {
	values := []float64{1, 42, 0.1, 1.5e-7, 123456789012345680000, 1.7976931348623157e308}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range values {
			buf = AppendNumber(buf[:0], f)
		}
	}
}
