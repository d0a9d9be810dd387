package command

import "flag"

// Positional parses args with fs, letting flags come before or after the
// positional arguments (`show TASK --json` as well as `show --json TASK`),
// and returns the positional arguments in order. An argument "--" seen
// where a positional one would be ends the flags: what follows it is
// positional. The error is fs.Parse's, flag.ErrHelp for -h and --help.
func Positional(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if rest[0] == "--" {
			return append(positional, rest[1:]...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}
