package gitstate

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash"
	"io"
	"os"
	"strings"
	"time"
)

// untrackedDomain starts every untracked-state digest (36 bytes).
const untrackedDomain = "agenttool.collab/untracked-state/v1\x00"

// readChunk is the read size used when hashing file contents.
const readChunk = 64 << 10

// errUnhashable means the untracked state cannot be digested within the
// contract's rules; the caller reports it as a null digest.
var errUnhashable = errors.New("untracked state cannot be digested")

// untrackedHasher digests the untracked files of one worktree
// (docs/contract.md#untracked-digest).
type untrackedHasher struct {
	root     string
	budget   int64
	deadline time.Time
	sum      hash.Hash
}

// untrackedDigest digests the NUL-terminated paths listed by
// "git ls-files --others --exclude-standard -z", in listing order, reading
// each file under root. It returns the 32-byte digest, or ok=false when the
// listing is malformed or any path, entry or bound prevents a digest.
func untrackedDigest(root string, listing []byte, l Limits, start time.Time) (digest [32]byte, ok bool) {
	entries, ok := splitListing(listing, l.MaxUntrackedPaths)
	if !ok {
		return digest, false
	}
	h := untrackedHasher{root: root, budget: l.MaxUntrackedBytes,
		deadline: start.Add(l.UntrackedDeadline), sum: sha256.New()}
	h.sum.Write([]byte(untrackedDomain))
	for _, raw := range entries {
		if err := h.add(decodeText(raw)); err != nil {
			return digest, false
		}
	}
	h.sum.Sum(digest[:0])
	return digest, true
}

// splitListing splits NUL-terminated output into at most max entries; empty
// output has none, and an empty entry or a missing final NUL is malformed.
func splitListing(listing []byte, max int) ([][]byte, bool) {
	if len(listing) == 0 {
		return nil, true
	}
	if listing[len(listing)-1] != 0 || bytes.Count(listing, []byte{0}) > max {
		return nil, false
	}
	entries := bytes.Split(listing[:len(listing)-1], []byte{0})
	for _, e := range entries {
		if len(e) == 0 {
			return nil, false
		}
	}
	return entries, true
}

// add feeds one entry: its name, then its symlink target or its contents'
// digest and executable bits.
func (h *untrackedHasher) add(name string) error {
	if h.expired() || !safeRelative(name) {
		return errUnhashable
	}
	full := h.root + "/" + name
	info, err := os.Lstat(full)
	if err != nil {
		return errUnhashable
	}
	h.writeLen(len(name))
	h.sum.Write([]byte(name))
	switch {
	case info.Mode()&os.ModeSymlink != 0:
		return h.addSymlink(full)
	case info.Mode().IsRegular():
		return h.addFile(full)
	default:
		return errUnhashable
	}
}

func (h *untrackedHasher) addSymlink(full string) error {
	target, err := os.Readlink(full)
	if err != nil {
		return errUnhashable
	}
	target = decodeText([]byte(target))
	if int64(len(target)) > h.budget {
		return errUnhashable
	}
	h.sum.Write([]byte("symlink\x00"))
	h.writeLen(len(target))
	h.sum.Write([]byte(target))
	h.budget -= int64(len(target))
	return nil
}

func (h *untrackedHasher) addFile(full string) error {
	f, err := os.Open(full)
	if err != nil {
		return errUnhashable
	}
	defer f.Close()
	before, err := statOpen(f)
	if err != nil || !before.regular || before.size > h.budget {
		return errUnhashable
	}
	contents, err := h.hashContents(f, before.size)
	if err != nil {
		return err
	}
	after, err := statOpen(f)
	if err != nil || after != before {
		return errUnhashable
	}
	h.sum.Write([]byte("file\x00"))
	h.writeLen(int(before.mode & 0o111))
	h.sum.Write(contents)
	h.budget -= before.size
	return nil
}

// hashContents digests f in chunks, checking the deadline before each, and
// requires exactly size bytes.
func (h *untrackedHasher) hashContents(f *os.File, size int64) ([]byte, error) {
	sum := sha256.New()
	buf := make([]byte, readChunk)
	var read int64
	for {
		if h.expired() {
			return nil, errUnhashable
		}
		n, err := f.Read(buf)
		sum.Write(buf[:n])
		read += int64(n)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil || read > size {
			return nil, errUnhashable
		}
	}
	if read != size {
		return nil, errUnhashable
	}
	return sum.Sum(nil), nil
}

func (h *untrackedHasher) expired() bool {
	return !time.Now().Before(h.deadline)
}

func (h *untrackedHasher) writeLen(n int) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(n))
	h.sum.Write(b[:])
}

// safeRelative reports whether name is a relative path whose components are
// all non-empty and neither "." nor "..".
func safeRelative(name string) bool {
	if strings.HasPrefix(name, "/") {
		return false
	}
	for part := range strings.SplitSeq(name, "/") {
		if part == "" || part == "." || part == ".." {
			return false
		}
	}
	return true
}
