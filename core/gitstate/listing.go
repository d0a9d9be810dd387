package gitstate

import (
	"bytes"
	"context"
	"sync"
)

// listFiles learns what "ls-files -s -z" (the index listing, checkpoint
// capture step 4) and "ls-files --others --exclude-standard -z" (the
// untracked listing, step 6) print, normally with one process: "ls-files -t"
// prints both lists, each entry behind a two-byte tag ("? " for an untracked
// path, "H ", "S " or "M " for an index entry), and removing the tags gives
// each list byte for byte. When that call fails (for example because the two
// lists together exceed the output cap) or prints anything else, the
// contract's two calls run instead, so the result never depends on the
// shortcut.
func listFiles(ctx context.Context, r runner, root string) (index, untracked gitOutput) {
	out, ok := r.bytes(ctx, root, "ls-files", "-t", "-s", "--others", "--exclude-standard", "-z")
	if ok {
		if index, untracked, ok = splitTagged(out); ok {
			return index, untracked
		}
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		out, ok := r.bytes(ctx, root, "ls-files", "-s", "-z")
		index = gitOutput{out, ok}
	})
	out, ok = r.bytes(ctx, root, "ls-files", "--others", "--exclude-standard", "-z")
	untracked = gitOutput{out, ok}
	wg.Wait()
	return index, untracked
}

// splitTagged separates the output of "ls-files -t -s --others -z" into the
// index and untracked listings; ok is false for output it cannot read.
func splitTagged(out []byte) (index, untracked gitOutput, ok bool) {
	index, untracked = gitOutput{out: []byte{}, ok: true}, gitOutput{out: []byte{}, ok: true}
	if len(out) == 0 {
		return index, untracked, true
	}
	if out[len(out)-1] != 0 {
		return index, untracked, false
	}
	for e := range bytes.SplitSeq(out[:len(out)-1], []byte{0}) {
		if len(e) < 3 || e[1] != ' ' {
			return index, untracked, false
		}
		switch e[0] {
		case '?':
			untracked.out = append(append(untracked.out, e[2:]...), 0)
		case 'H', 'S', 'M':
			index.out = append(append(index.out, e[2:]...), 0)
		default:
			return index, untracked, false
		}
	}
	return index, untracked, true
}
