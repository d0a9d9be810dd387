package hostlink

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agenttool/collab/core/fileowner"
)

// maxRecord bounds the bytes read from one record file.
const maxRecord = 64 << 10

// path is the record file of a session in dir. The caller passes a
// session id that is a safe file name stem (generated ids are).
func path(dir, sessionID string) string { return filepath.Join(dir, sessionID+Suffix) }

// Write stores r as dir/<session_id>.link, replacing the previous record
// of that session atomically (a private temporary file renamed over it).
// dir is created 0700 when missing and must be private to this user.
// Records of servers that are no longer running are removed on the way.
func Write(dir string, r Record) error {
	r.Format = Format
	if !r.valid() || strings.ContainsAny(r.SessionID, `/\`+"\x00") || r.SessionID == "." || r.SessionID == ".." {
		return errors.New("write the host link: the record is incomplete")
	}
	if err := privateDir(dir, true); err != nil {
		return err
	}
	sweep(dir)
	data, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("write the host link: %w", err)
	}
	suffix := make([]byte, 8)
	if _, err := rand.Read(suffix); err != nil {
		return fmt.Errorf("write the host link: %w", err)
	}
	target := path(dir, r.SessionID)
	tmp := target + ".tmp-" + hex.EncodeToString(suffix)
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return errors.New("write the host link: cannot create the record")
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(tmp)
		return errors.New("write the host link: cannot write the record")
	}
	if err := os.Rename(tmp, target); err != nil {
		os.Remove(tmp)
		return errors.New("write the host link: cannot publish the record")
	}
	return nil
}

// Remove deletes the session's record in dir when it is still the one
// server wrote; a record a later server wrote for the session is kept.
func Remove(dir, sessionID string, server Proc) {
	p := path(dir, sessionID)
	if r, ok := readRecord(p); ok && r.Server == server {
		os.Remove(p)
	}
}

// Find returns the record in dir that s may use (see Match), and false
// when there is none, the directory is missing or not private, or the
// processes cannot be identified. It only reads.
func Find(dir string, s Seeker) (Record, bool) {
	return Match(List(dir), s, Alive)
}

// List reads every well-formed record in dir. A directory that is not a
// private one of this user's yields none; a file that is not a private
// regular file of this user's, or does not parse, is skipped.
func List(dir string) []Record {
	if privateDir(dir, false) != nil {
		return nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []Record
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), Suffix) {
			continue
		}
		if r, ok := readRecord(filepath.Join(dir, e.Name())); ok && e.Name() == r.SessionID+Suffix {
			out = append(out, r)
		}
	}
	return out
}

// sweep removes the records of servers that are gone.
func sweep(dir string) {
	for _, r := range List(dir) {
		if !Alive(r.Server) {
			os.Remove(path(dir, r.SessionID))
		}
	}
}

func readRecord(p string) (Record, bool) {
	f, err := fileowner.OpenNoFollow(p)
	if err != nil {
		return Record{}, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fileowner.CheckPrivate(fi) != fileowner.Private {
		return Record{}, false
	}
	data, err := io.ReadAll(io.LimitReader(f, maxRecord))
	if err != nil {
		return Record{}, false
	}
	return decodeRecord(data)
}

// privateDir checks that dir is a real directory of this user's closed to
// others, creating it 0700 first when create is set and it is missing.
func privateDir(dir string, create bool) error {
	fi, err := os.Lstat(dir)
	if create && errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return errors.New("write the host link: cannot create its folder")
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return errors.New("host link: its folder cannot be read")
	}
	if fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() || !fileowner.Mine(fi) || !fileowner.ClosedToOthers(fi) {
		return errors.New("host link: its folder is not private")
	}
	return nil
}
