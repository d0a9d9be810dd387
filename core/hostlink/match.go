package hostlink

// Seeker is what a hook or monitor knows about itself: its host process
// and, when the host gave it one, the conversation id.
type Seeker struct {
	Host         Proc
	Conversation string
}

// Match returns the record a seeker may use, and false when none fits.
// A record fits when its host is exactly the seeker's host (id, start
// time and boot: a reused id never fits), its conversation equals the
// seeker's whenever both are known, and its server is still running
// (alive; a crashed server's record is ignored). A record naming the
// seeker's conversation is preferred to one naming none; of several
// equally good the newest written wins, so a restarted server's record
// supersedes the previous one.
func Match(records []Record, s Seeker, alive func(Proc) bool) (Record, bool) {
	var best Record
	found := false
	for _, r := range records {
		if !fits(r, s) || !alive(r.Server) {
			continue
		}
		if !found || better(r, best, s) {
			best, found = r, true
		}
	}
	return best, found
}

// better reports whether a should be chosen over b: an exact conversation
// first, then the newer record.
func better(a, b Record, s Seeker) bool {
	exactA, exactB := s.Conversation != "" && a.Conversation == s.Conversation, s.Conversation != "" && b.Conversation == s.Conversation
	if exactA != exactB {
		return exactA
	}
	return newer(a, b)
}

func fits(r Record, s Seeker) bool {
	if s.Host.PID <= 0 || r.Host != s.Host {
		return false
	}
	return r.Conversation == "" || s.Conversation == "" || r.Conversation == s.Conversation
}

// newer orders records by when they were written, then by server start
// and session id, so the choice never depends on directory order.
func newer(a, b Record) bool {
	if !a.Written.Equal(b.Written) {
		return a.Written.After(b.Written)
	}
	if a.Server.Start != b.Server.Start {
		return a.Server.Start > b.Server.Start
	}
	return a.SessionID > b.SessionID
}
