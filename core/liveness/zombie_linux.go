package liveness

import (
	"os"
	"strconv"
	"strings"
)

// zombie reports whether process pid has exited and waits to be reaped
// (state Z in /proc/<pid>/stat, the first field after the command name).
func zombie(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(s[i+1:])
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}
