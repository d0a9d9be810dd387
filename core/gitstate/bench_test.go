package gitstate

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"
)

// largeRepo has 5,000 files: 2,500 tracked (250 of them modified), 2,000
// ignored and 500 untracked.
func largeRepo(b *testing.B) *repo {
	r := newRepo(b)
	r.write(".gitignore", "build/\n", 0o644)
	for i := range 2500 {
		r.write(fmt.Sprintf("src/d%02d/f%03d.txt", i/100, i%100), fmt.Sprintf("tracked %d\n", i), 0o644)
	}
	r.commit()
	for i := 0; i < 2500; i += 10 {
		r.write(fmt.Sprintf("src/d%02d/f%03d.txt", i/100, i%100), fmt.Sprintf("modified %d\n", i), 0o644)
	}
	for i := range 2000 {
		r.write(fmt.Sprintf("build/d%02d/o%03d.bin", i/100, i%100), "ignored\n", 0o644)
	}
	for i := range 500 {
		r.write(fmt.Sprintf("new/d%02d/n%03d.txt", i/100, i%100), fmt.Sprintf("untracked %d\n", i), 0o644)
	}
	return r
}

// benchCapture measures InspectAndCaptureWith on root and checks the
// expected presence of the state digest once.
func benchCapture(b *testing.B, root string, l Limits, wantState bool) {
	ctx := context.Background()
	_, cp, err := InspectAndCaptureWith(ctx, root, "", l)
	if err != nil || cp.Digests == nil || (cp.Digests.StateSHA256 != nil) != wantState {
		b.Fatalf("unexpected checkpoint %v (%v)", cp.Map(), err)
	}
	for b.Loop() {
		_, _, _ = InspectAndCaptureWith(ctx, root, "", l)
	}
}

func BenchmarkInspect(b *testing.B) {
	r := smallRepo(b)
	for b.Loop() {
		_, _ = Inspect(context.Background(), r.dir, "")
	}
}

func BenchmarkCheckpointSmallRepo(b *testing.B) {
	benchCapture(b, smallRepo(b).dir, Limits{}, true)
}

func BenchmarkCaptureKnownIdentitySmallRepo(b *testing.B) {
	r := smallRepo(b)
	id, err := Inspect(context.Background(), r.dir, "")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = Capture(context.Background(), id)
	}
}

// BenchmarkContractSequenceSmallRepo runs the contract's calls one after
// another (3 for identity, 7 for the checkpoint), as a baseline.
func BenchmarkContractSequenceSmallRepo(b *testing.B) {
	r := smallRepo(b)
	run := newRunner(Limits{}.withDefaults())
	ctx := context.Background()
	for b.Loop() {
		loc := locateStepwise(ctx, run, r.dir)
		run.text(ctx, loc.rootPath, "rev-parse", "--verify", "HEAD")
		run.text(ctx, loc.rootPath, "symbolic-ref", "--quiet", "--short", "HEAD")
		run.bytes(ctx, loc.rootPath, "status", "--porcelain=v1", "-z", "--untracked-files=all")
		run.bytes(ctx, loc.rootPath, "ls-files", "-s", "-z")
		run.bytes(ctx, loc.rootPath, "diff", "--no-ext-diff", "--binary", "HEAD", "--")
		l, _ := run.bytes(ctx, loc.rootPath, "ls-files", "--others", "--exclude-standard", "-z")
		untrackedDigest(loc.rootPath, l, Limits{}.withDefaults(), time.Now())
		run.bytes(ctx, loc.rootPath, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	}
}

func BenchmarkCheckpointLargeRepo(b *testing.B) {
	benchCapture(b, largeRepo(b).dir, Limits{}, true)
}

func BenchmarkBoundUntrackedPaths(b *testing.B) {
	r := smallRepo(b)
	for i := range MaxUntrackedPaths + 1 - 4 { // the layout has 4 untracked entries
		r.write(fmt.Sprintf("many/d%02d/u%04d", i/1000, i%1000), "u", 0o644)
	}
	benchCapture(b, r.dir, Limits{}, false)
}

func BenchmarkBoundUntrackedBytes(b *testing.B) {
	r := smallRepo(b)
	f, err := os.Create(r.path("big.bin"))
	if err != nil {
		b.Fatal(err)
	}
	if err := f.Truncate(MaxUntrackedBytes + 1); err != nil {
		b.Fatal(err)
	}
	f.Close()
	benchCapture(b, r.dir, Limits{}, false)
}

// BenchmarkBoundDeadline hashes a 64 MiB untracked file under a 50 ms
// deadline: the capture ends about one chunk after the deadline passes.
func BenchmarkBoundDeadline(b *testing.B) {
	r := smallRepo(b)
	data := make([]byte, MaxUntrackedBytes-1024)
	if err := os.WriteFile(r.path("big.bin"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	benchCapture(b, r.dir, Limits{UntrackedDeadline: 50 * time.Millisecond}, false)
}

// BenchmarkUntrackedFullBudget hashes a 64 MiB untracked file within the
// contract's bounds, for comparison with the 2 s deadline.
func BenchmarkUntrackedFullBudget(b *testing.B) {
	r := smallRepo(b)
	data := make([]byte, MaxUntrackedBytes-1024)
	if err := os.WriteFile(r.path("big.bin"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	benchCapture(b, r.dir, Limits{}, true)
}

// BenchmarkUntrackedDigestHitsBounds measures the digest alone: how long it
// takes to give up at each bound (the deadline is 20 ms here so that the
// overshoot past it is visible).
func BenchmarkUntrackedDigestHitsBounds(b *testing.B) {
	d := tempDir(b)
	if err := os.WriteFile(d+"/f", []byte("x"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(d+"/big", make([]byte, MaxUntrackedBytes), 0o644); err != nil {
		b.Fatal(err)
	}
	over, err := os.Create(d + "/over")
	if err != nil {
		b.Fatal(err)
	}
	if err := over.Truncate(MaxUntrackedBytes + 1); err != nil {
		b.Fatal(err)
	}
	over.Close()
	names := make([]string, MaxUntrackedPaths+1)
	for i := range names {
		names[i] = "f"
	}
	cases := []struct {
		name    string
		listing []byte
		limits  Limits
	}{
		{"paths=10001", listing(names...), Limits{}},
		{"bytes=64MiB+1", listing("over"), Limits{}},
		{"deadline=20ms", listing("big"), Limits{UntrackedDeadline: 20 * time.Millisecond}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			l := c.limits.withDefaults()
			for b.Loop() {
				if _, ok := untrackedDigest(d, c.listing, l, time.Now()); ok {
					b.Fatal("the bound was not hit")
				}
			}
		})
	}
}
