package liveness

import (
	"os"

	"github.com/agenttool/collab/core/hostlink"
	"github.com/agenttool/collab/core/store"
)

// Here describes this machine for a probe: its host name and, where the
// system has one, this boot's id.
type Here struct {
	Machine string
	BootID  string
}

// ThisMachine returns the description of the machine this process runs
// on; Machine is "" when the system will not say, and then no process is
// ever watched.
func ThisMachine() Here {
	name, err := os.Hostname()
	if err != nil {
		name = ""
	}
	h := Here{Machine: name}
	if self, ok := hostlink.Identify(os.Getpid()); ok {
		h.BootID = self.Boot
	}
	return h
}

// Holder returns the host record fields that name this process as a
// session's holder: the machine, the process id and, where the system
// tells them, its start time and boot.
func Holder(kind store.HostKind) store.SessionHost {
	here := ThisMachine()
	h := store.SessionHost{Kind: kind, Machine: here.Machine, PID: int64(os.Getpid()), BootID: here.BootID}
	if self, ok := hostlink.Identify(os.Getpid()); ok {
		h.ProcessStart = int64(self.Start)
	}
	return h
}

// LocalProbe watches the holding processes recorded on this machine
// (see the package comment); any other record is Unknown.
func LocalProbe() Probe {
	here := ThisMachine()
	return func(h store.SessionHost) Process {
		if h.PID <= 0 || here.Machine == "" || h.Machine != here.Machine {
			return Unknown
		}
		if h.BootID != "" && here.BootID != "" && h.BootID != here.BootID {
			return Exited // the machine has restarted since
		}
		switch signalZero(int(h.PID)) {
		case Exited:
			return Exited
		case Unknown:
			return Unknown
		}
		if h.ProcessStart != 0 {
			if now, ok := hostlink.Identify(int(h.PID)); ok && int64(now.Start) != h.ProcessStart {
				return Exited // the id now names a later process
			}
		}
		if zombie(int(h.PID)) {
			return Exited
		}
		return Running
	}
}
