package hostlink

import (
	"os"
	"strconv"
	"strings"
)

// readStat parses /proc/<pid>/stat. The command name sits in parentheses
// and may itself hold spaces and parentheses, so fields are counted after
// the last ')': state is field 3, the parent id field 4, the start time
// field 22.
func readStat(pid int) (stat, bool) {
	if pid <= 0 {
		return stat{}, false
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return stat{}, false
	}
	s := string(data)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return stat{}, false
	}
	f := strings.Fields(s[close+1:])
	if len(f) < 20 {
		return stat{}, false
	}
	ppid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseUint(f[19], 10, 64)
	if err1 != nil || err2 != nil {
		return stat{}, false
	}
	return stat{comm: s[open+1 : close], ppid: ppid, start: start}, true
}

// bootID is this boot's random id.
func bootID() (string, bool) {
	data, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return "", false
	}
	id := strings.TrimSpace(string(data))
	return id, id != ""
}
