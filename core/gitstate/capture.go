package gitstate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"
)

// isObjectID reports whether s has the shape head_sha must have: 40 to 64
// hexadecimal digits of either case (^[0-9a-fA-F]{40,64}$).
func isObjectID(s string) bool {
	if len(s) < 40 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// Capture observes the worktree of id with the contract's bounds
// (docs/contract.md#checkpoint-capture, #untracked-digest). Non-Git roots and
// repositories without a HEAD commit get the reduced form. Git calls that
// fail, including those interrupted because ctx ended, make the values that
// depend on them null; callers that must tell cancellation apart check
// ctx.Err().
func Capture(ctx context.Context, id Identity) Checkpoint {
	return CaptureWith(ctx, id, Limits{})
}

// CaptureWith is Capture with bounds; zero fields of l take the contract's
// values.
func CaptureWith(ctx context.Context, id Identity, l Limits) Checkpoint {
	l = l.withDefaults()
	if !id.Git {
		return reducedCheckpoint(id.WorktreeID, time.Now())
	}
	return capture(ctx, newRunner(l), l, id, nil, false)
}

// InspectAndCapture inspects root (as Inspect) and captures the result (as
// Capture). It learns HEAD and its branch in the same git process as the
// identity, so it starts fewer processes than Inspect followed by Capture.
func InspectAndCapture(ctx context.Context, root, explicitKey string) (Identity, Checkpoint, error) {
	return InspectAndCaptureWith(ctx, root, explicitKey, Limits{})
}

// InspectAndCaptureWith is InspectAndCapture with bounds. Unlike Capture it
// returns ctx's error when ctx ends before the checkpoint is complete.
func InspectAndCaptureWith(ctx context.Context, root, explicitKey string, l Limits) (Identity, Checkpoint, error) {
	return inspectAndCapture(ctx, root, explicitKey, l, nil)
}

// inspectAndCapture is InspectAndCaptureWith; with an Observer it skips
// listing the filter drivers when no configuration file can define one.
func inspectAndCapture(ctx context.Context, root, explicitKey string, l Limits, o *Observer) (Identity, Checkpoint, error) {
	l = l.withDefaults()
	r := newRunner(l)
	id, seen, err := inspect(ctx, r, root, explicitKey, true)
	if err != nil {
		return Identity{}, Checkpoint{}, err
	}
	cp := reducedCheckpoint(id.WorktreeID, time.Now())
	if id.Git {
		cp = capture(ctx, r, l, id, seen.head, o.noFilterDrivers(ctx, r, seen.dirs))
	}
	if err := ctx.Err(); err != nil {
		return Identity{}, Checkpoint{}, fmt.Errorf("capture %s: %w", id.RootPath, err)
	}
	return id, cp, nil
}

// capture observes a Git worktree; head is HEAD when already known, and
// noFilters says that no filter driver is configured.
func capture(ctx context.Context, r runner, l Limits, id Identity, head *headState, noFilters bool) Checkpoint {
	obs, ok := observe(ctx, r, l, id.RootPath, head, noFilters)
	if !ok {
		return reducedCheckpoint(id.WorktreeID, time.Now())
	}
	return obs.checkpoint(id.WorktreeID, time.Now())
}

// headState is what HEAD resolves to: its object id (checkpoint capture step
// 1) and the short name of the branch it points at (step 2).
type headState struct {
	head, branch gitText
}

// readHead learns HEAD and its branch with one rev-parse call, or with the
// contract's two calls when that output is unclear.
func readHead(ctx context.Context, r runner, root string) headState {
	out, exit, _ := r.exec(ctx, root, append([]string{"rev-parse"}, headArgs()...)...)
	b := readBatch(out, exit, 0, true)
	switch b.verdict {
	case batchUsable:
		return *b.head
	case batchNotWorkTree: // the repository itself could not be opened
		return headState{}
	}
	head := r.text(ctx, root, "rev-parse", "--verify", "HEAD")
	if !head.ok {
		return headState{}
	}
	return headState{head: head, branch: r.text(ctx, root, "symbolic-ref", "--quiet", "--short", "HEAD")}
}

// observation is the raw result of the git calls of checkpoint capture
// (docs/contract.md#checkpoint-capture).
type observation struct {
	headState
	status1, status2 gitOutput
	index, diff      gitOutput
	untracked        *[32]byte
}

// gitOutput is the raw stdout of a call, or ok=false when it failed.
type gitOutput struct {
	out []byte
	ok  bool
}

// observe runs the calls of checkpoint capture. Those that do not depend on
// each other run at the same time; the second status runs after all of them,
// so that equal status outputs bracket every other observation. The calls
// that may read worktree files through a filter driver (status and diff) wait
// for the list of configured drivers and run with each one switched off; when
// that list cannot be read they do not run at all, and the values that depend
// on them stay null; with noFilters (no configuration file can define a
// driver) the list is not asked for. ok is false when HEAD does not
// resolve; the remaining calls are then abandoned.
func observe(ctx context.Context, r runner, l Limits, root string, known *headState, noFilters bool) (obs observation, ok bool) {
	if known != nil && !known.head.ok {
		return obs, false
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	if known == nil {
		wg.Go(func() {
			if obs.headState = readHead(ctx, r, root); !obs.head.ok {
				cancel()
			}
		})
	} else {
		obs.headState = *known
	}
	wg.Go(func() {
		index, listing := listFiles(ctx, r, root)
		obs.index = index
		if listing.ok {
			obs.untracked = digestPtr(untrackedDigest(root, listing.out, l, time.Now()))
		}
	})
	safe, safeOK := r, true
	if !noFilters {
		safe, safeOK = filtersOff(ctx, r, root)
	}
	if safeOK {
		wg.Go(func() { obs.status1 = status(ctx, safe, root) })
		wg.Go(func() {
			out, ok := safe.bytes(ctx, root, "diff", "--no-ext-diff", "--no-textconv",
				"--ignore-submodules=dirty", "--binary", "HEAD", "--")
			obs.diff = gitOutput{out, ok}
		})
	}
	wg.Wait()
	if !obs.head.ok {
		return obs, false
	}
	if safeOK {
		obs.status2 = status(ctx, safe, root)
	}
	return obs, true
}

// status is the contract's status call (checkpoint capture steps 3 and 7),
// without looking into submodules' worktrees (that would start git in them
// with their own configuration).
func status(ctx context.Context, r runner, root string) gitOutput {
	out, ok := r.bytes(ctx, root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=dirty")
	return gitOutput{out, ok}
}

// filtersOff is r with every configured filter driver switched off; ok is
// false when the drivers could not be listed.
func filtersOff(ctx context.Context, r runner, root string) (runner, bool) {
	out, exit, _ := r.exec(ctx, root, filterNamesArgs()...)
	if exit != 0 && !(exit == 1 && len(out) == 0) { // 1: no key matched
		return r, false
	}
	names, ok := filterNames(out)
	if !ok {
		return r, false
	}
	return r.withFilters(names), true
}

func digestPtr(d [32]byte, ok bool) *[32]byte {
	if !ok {
		return nil
	}
	return &d
}

// checkpoint assembles the full form from an observation (checkpoint capture
// steps 8-11).
func (o observation) checkpoint(worktreeID string, now time.Time) Checkpoint {
	cp := Checkpoint{WorktreeID: worktreeID, Digests: &StateDigests{}, CapturedAt: formatCapturedAt(now)}
	if isObjectID(o.head.value) {
		sha := strings.ToLower(o.head.value)
		cp.HeadSHA = &sha
	}
	if o.branch.ok {
		cp.Branch = &o.branch.value
	}
	if o.status2.ok {
		dirty := len(o.status2.out) > 0
		cp.Dirty = &dirty
	}
	if o.index.ok {
		cp.Digests.IndexSHA256 = hexSum(o.index.out)
	}
	stable := o.status1.ok && o.status2.ok && string(o.status1.out) == string(o.status2.out)
	if o.diff.ok && stable && o.untracked != nil {
		cp.Digests.StateSHA256 = hexSum(o.diff.out, []byte{0}, o.status2.out, []byte{0}, o.untracked[:])
	}
	return cp
}

// hexSum is the lower-case hex SHA-256 of the concatenated parts.
func hexSum(parts ...[]byte) *string {
	h := sha256.New()
	for _, p := range parts {
		h.Write(p)
	}
	s := hex.EncodeToString(h.Sum(nil))
	return &s
}
