package cli

import (
	"errors"
	"flag"
	"io"
	"os"
	"strings"
)

// longText is where a command's long text comes from: a flag's value, all
// of standard input (--stdin), or a file (--file), exactly one of them, so
// a person can pipe a body or keep it in a file rather than quote it.
type longText struct {
	name  string // the flag the text may also be given with
	value *string
	stdin *bool
	file  *string
}

// longTextVar declares --NAME TEXT, --stdin and --file F on fs.
func longTextVar(fs *flag.FlagSet, name, usage string) *longText {
	return &longText{
		name:  name,
		value: fs.String(name, "", usage),
		stdin: fs.Bool("stdin", false, "read the "+name+" from standard input"),
		file:  fs.String("file", "", "read the "+name+" from file `F`"),
	}
}

// readLimit caps what is read: four bytes per allowed UTF-16 code unit
// and one more, so that text over the bound is still seen to be over it.
const readLimit = 4*9000 + 1

// read returns the text and whether any was given. A final line break (as
// echo and editors leave) is dropped; the rest is kept as written.
func (l *longText) read(stdin io.Reader) (string, bool, error) {
	given := 0
	for _, set := range []bool{*l.value != "", *l.stdin, *l.file != ""} {
		if set {
			given++
		}
	}
	switch {
	case given == 0:
		return "", false, nil
	case given > 1:
		return "", false, &problem{what: "give the " + l.name + " once: --" + l.name + ", --stdin or --file", fix: "drop all but one of them", code: ExitUsage}
	case *l.value != "":
		return *l.value, true, nil
	}
	var raw []byte
	var err error
	if *l.stdin {
		if stdin == nil {
			return "", false, errors.New("no standard input to read")
		}
		raw, err = io.ReadAll(io.LimitReader(stdin, readLimit))
	} else {
		raw, err = readFileLimited(*l.file)
	}
	if err != nil {
		return "", false, &problem{what: "cannot read the " + l.name + ": " + err.Error(), fix: "check the file, or pass --" + l.name + " TEXT", code: ExitUsage}
	}
	text := strings.TrimSuffix(strings.TrimSuffix(string(raw), "\n"), "\r")
	return text, true, nil
}

func readFileLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err // an *os.PathError, which names the file
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, readLimit))
}
