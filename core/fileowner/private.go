package fileowner

import "io/fs"

// Fault names the first thing that keeps a file from being private to this
// user. The zero value, Private, means nothing does.
type Fault int

// The faults CheckPrivate finds, in the order it looks for them.
const (
	// Private: a regular file of this user's, closed to group and other
	// users, with exactly one name.
	Private Fault = iota
	// Symlink: the name is a symbolic link (only seen with os.Lstat).
	Symlink
	// NotRegular: a directory, FIFO, socket or device.
	NotRegular
	// NotMine: owned by another uid.
	NotMine
	// OpenToOthers: some group or other permission bit is set.
	OpenToOthers
	// Linked: the file has more than one name (a hard link), so someone
	// else may have put it here or may see it change.
	Linked
)

// String says the fault in words that complete "the file is ...".
func (f Fault) String() string {
	switch f {
	case Private:
		return "a private file of this user"
	case Symlink:
		return "a symbolic link"
	case NotRegular:
		return "not a regular file"
	case NotMine:
		return "owned by another user"
	case OpenToOthers:
		return "open to group or other users"
	default:
		return "a file with more than one name (a hard link)"
	}
}

// CheckPrivate applies collab's credential-file rule to info (from os.Lstat
// of the name, or from Stat of a descriptor opened without following
// links): a regular file, not a symlink, owned by this user, with no group
// or other permission bits, and one link. It returns the first rule broken,
// or Private.
func CheckPrivate(info fs.FileInfo) Fault {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return Symlink
	case !info.Mode().IsRegular():
		return NotRegular
	case !Mine(info):
		return NotMine
	case !ClosedToOthers(info):
		return OpenToOthers
	case LinkCount(info) != 1:
		return Linked
	}
	return Private
}
