package hostlink

// Proc identifies one process across time: its id, its start time (clock
// ticks after boot) and the boot it belongs to. Two Procs are equal only
// when all three are, so a process id reused by a later process, in this
// boot or another, never equals the earlier one.
type Proc struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	Boot  string `json:"boot"`
}

// hostDepth bounds how far up HostOf looks: the host, or a shell the host
// started the command through, or one more shell.
const hostDepth = 3

// shells are the programs a host may start a hook or server through; a
// process running one is never the host itself.
var shells = map[string]bool{
	"sh": true, "dash": true, "bash": true, "zsh": true, "ksh": true, "mksh": true,
	"ash": true, "busybox": true, "fish": true, "csh": true, "tcsh": true,
}

// HostOf returns the process that started pid's command: the nearest
// ancestor, at most three levels up, that is not running a shell. Hosts
// start hooks through `sh -c` and servers directly, so a hook and the
// server of one host process both arrive at that process. It reports false
// when processes cannot be identified or no such ancestor is found.
func HostOf(pid int) (Proc, bool) {
	cur := pid
	for i := 0; i < hostDepth; i++ {
		st, ok := readStat(cur)
		if !ok || st.ppid <= 1 {
			return Proc{}, false
		}
		parent, ok := readStat(st.ppid)
		if !ok {
			return Proc{}, false
		}
		if !shells[parent.comm] {
			return Identify(st.ppid)
		}
		cur = st.ppid
	}
	return Proc{}, false
}

// Identify returns the identity of the running process pid.
func Identify(pid int) (Proc, bool) {
	st, ok := readStat(pid)
	if !ok {
		return Proc{}, false
	}
	boot, ok := bootID()
	if !ok {
		return Proc{}, false
	}
	return Proc{PID: pid, Start: st.start, Boot: boot}, true
}

// Alive reports whether p is still running: a process with its id runs
// and started when p did, in this boot.
func Alive(p Proc) bool {
	now, ok := Identify(p.PID)
	return ok && now == p
}

// stat is what HostOf and Identify read about a process.
type stat struct {
	comm  string
	ppid  int
	start uint64
}
