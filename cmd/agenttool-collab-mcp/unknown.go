package main

import (
	"fmt"
	"sort"

	"github.com/agenttool/collab/hosts/cli"
)

// unknownCommand is the one line an unknown command gets: what was typed,
// the nearest command when one is a slip away, and where the list is. The
// whole usage text would bury that line.
func unknownCommand(name string) string {
	prog := cli.ProgramName()
	hint := ""
	if near := nearestCommand(name); near != "" {
		hint = fmt.Sprintf(" (did you mean %q?)", near)
	}
	return fmt.Sprintf("%s: unknown command %q%s; run '%s --help' for the list", prog, name, hint, prog)
}

// nearestCommand is the subcommand within two edits of name (the first in
// alphabetical order on a tie), or "".
func nearestCommand(name string) string {
	names := make([]string, 0, len(subcommands)+1)
	for n := range subcommands {
		names = append(names, n)
	}
	names = append(names, "help")
	sort.Strings(names)
	best, bestDist := "", 3
	for _, n := range names {
		if d := editDistance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, by byte.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
