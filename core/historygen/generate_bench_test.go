package historygen_test

import (
	"context"
	"testing"

	"github.com/agenttool/collab/core/historygen"
)

// BenchmarkGenerate times generating a 20,000-event journal, reported as
// events/s (a million events take about 1e6 / that many seconds).
func BenchmarkGenerate(b *testing.B) {
	const n = 20000
	for i := 0; i < b.N; i++ {
		f, err := historygen.Cached(context.Background(), b.TempDir(), n)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(f.Events)/f.GenerateSeconds, "events/s")
	}
}
