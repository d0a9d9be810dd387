// Package tmux types one line into a tmux pane, for the push subcommand
// that wakes terminal agents without hooks or channels (Codex TUI, aider,
// any CLI in tmux).
//
// What it guarantees:
//   - it talks to an existing tmux server and never starts one;
//   - a pane is named once (Server.Resolve) and followed by its unique id
//     (%N), so renaming or moving windows never retargets another pane;
//   - Paste refuses a line that holds a control character or starts with
//     "/", so what it types can neither end the bracketed paste early nor
//     run an agent's slash command;
//   - the line is pasted as a bracketed paste (the program sees it as
//     pasted text, not keystrokes) and Enter is sent separately after it;
//   - IsShell tells the caller when the foreground program is a shell, in
//     which case nothing should be typed (it would run as a command).
//
// The text never goes on a command line: it reaches tmux on standard input
// (load-buffer -), so other users' ps never shows it.
package tmux
