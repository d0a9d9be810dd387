package command

import "strings"

// List is a flag that may repeat and takes comma-separated values; empty
// parts are dropped.
type List []string

func (l *List) String() string { return strings.Join(*l, ",") }

// Set adds the comma-separated values of one occurrence.
func (l *List) Set(v string) error {
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			*l = append(*l, part)
		}
	}
	return nil
}
