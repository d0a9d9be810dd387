//go:build !linux

package hostlink

// Without /proc no process can be identified: no link is written and none
// matches, so hooks stay silent.
func readStat(int) (stat, bool) { return stat{}, false }

func bootID() (string, bool) { return "", false }
