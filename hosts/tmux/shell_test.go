package tmux

import "testing"

func TestIsShellNamesEveryShellFormAndTreatsUnknownAsOne(t *testing.T) {
	cases := []struct {
		command string
		shell   bool
	}{
		{"bash", true}, {"-bash", true}, {"/bin/sh", true}, {"zsh", true}, {"-zsh", true}, {"fish", true},
		{"dash", true}, {"Bash", true}, {"", true}, {" ", true},
		{"codex", false}, {"node", false}, {"aider", false}, {"python3", false}, {"cat", false}, {"claude", false},
		{"bashful", false}, {"shx", false},
	}
	for _, c := range cases {
		if got := IsShell(c.command); got != c.shell {
			t.Errorf("IsShell(%q) = %v, want %v", c.command, got, c.shell)
		}
	}
}

func TestSafeLineRefusesSlashCommandsAndControls(t *testing.T) {
	cases := []struct {
		line string
		safe bool
	}{
		{"collab: #4 report to you from alice: /quit — call collab_next", true},
		{"collab: café ✔", true},
		{"/quit", false}, {"  /model x", false}, {"", false}, {"   ", false},
		{"collab: a\nb", false}, {"collab: a\rb", false}, {"collab: \x1b[201~", false},
		{"collab: \u009b2J", false}, {"collab: \x7f", false}, {"collab: \tx", false}, {"collab: \xff", false},
	}
	for _, c := range cases {
		if got := SafeLine(c.line); got != c.safe {
			t.Errorf("SafeLine(%q) = %v, want %v", c.line, got, c.safe)
		}
	}
}
