package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cpuSplit is where a window's CPU went on this machine, read from /proc
// at its start and end: the server process, every process named
// postgres (the test server and its backends), this benchmark process
// (the clients), and the machine as a whole, so that a rate can be set
// beside the CPU each unit of work costs. Times are in clock ticks.
type cpuSplit struct {
	serve, postgres, clients int64
	busy, total              int64
}

// readCPUSplit samples the counters now; servePid is the server's process.
func readCPUSplit(servePid int) cpuSplit {
	s := cpuSplit{serve: ticksOf(servePid), clients: ticksOf(os.Getpid())}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		if comm, err := os.ReadFile(d + "/comm"); err == nil && strings.TrimSpace(string(comm)) == "postgres" {
			pid, _ := strconv.Atoi(filepath.Base(d))
			s.postgres += ticksOf(pid)
		}
	}
	s.busy, s.total = machineTicks()
	return s
}

// report adds the window's split, per unit of work done in it, to b's
// metrics: <part>-cpu-ms/<unit> for the server, PostgreSQL and the
// clients, and busy-%, the share of all cores' time that was not idle.
func (s cpuSplit) report(b *testing.B, end cpuSplit, units float64, unit string) {
	if units <= 0 || end.total <= s.total {
		return
	}
	perUnit := func(ticks int64) float64 { return float64(ticks) * 10 / units } // 10 ms a tick
	b.ReportMetric(perUnit(end.serve-s.serve), "serve-cpu-ms/"+unit)
	b.ReportMetric(perUnit(end.postgres-s.postgres), "postgres-cpu-ms/"+unit)
	b.ReportMetric(perUnit(end.clients-s.clients), "clients-cpu-ms/"+unit)
	b.ReportMetric(100*float64(end.busy-s.busy)/float64(end.total-s.total), "busy-%")
}

// ticksOf is a process's user plus system time (fields 14 and 15 of
// /proc/<pid>/stat), 0 for a process that has gone.
func ticksOf(pid int) int64 {
	raw, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; fields count from after it.
	fields := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	u, _ := strconv.ParseInt(fields[11], 10, 64)
	k, _ := strconv.ParseInt(fields[12], 10, 64)
	return u + k
}

// machineTicks is the first line of /proc/stat: the ticks all cores spent
// busy and in total (idle and iowait count as not busy).
func machineTicks() (busy, total int64) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	for i, f := range strings.Fields(line)[1:] {
		n, _ := strconv.ParseInt(f, 10, 64)
		if i >= 8 { // guest time is already counted in user time
			break
		}
		total += n
		if i != 3 && i != 4 { // idle, iowait
			busy += n
		}
	}
	return busy, total
}
