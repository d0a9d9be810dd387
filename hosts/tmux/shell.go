package tmux

import (
	"path"
	"strings"
)

// shells are the foreground programs push never types into: text typed at
// a shell prompt runs as a command.
var shells = map[string]bool{
	"sh": true, "bash": true, "dash": true, "zsh": true, "fish": true, "ksh": true, "mksh": true, "pdksh": true,
	"oksh": true, "ash": true, "busybox": true, "csh": true, "tcsh": true, "rbash": true, "yash": true, "posh": true,
	"nu": true, "elvish": true, "xonsh": true, "pwsh": true, "powershell": true, "ion": true, "rc": true, "es": true,
	"oil": true, "osh": true, "ysh": true, "murex": true,
}

// IsShell reports whether command (a #{pane_current_command}) names a
// shell, including a login shell ("-bash"), a path ("/bin/sh") and an
// empty name, which tmux gives when it cannot tell: unknown is treated as
// a shell, so nothing is typed.
func IsShell(command string) bool {
	name := path.Base(strings.TrimPrefix(strings.TrimSpace(command), "-"))
	if name == "" || name == "." || name == "/" {
		return true
	}
	return shells[strings.ToLower(name)]
}
